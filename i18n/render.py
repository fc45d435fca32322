"""Structured effects rendered as Polish, Czech and English text.

Sentence patterns are interface strings of the `rulekb` catalog; everything that comes from the data
is a message of the `effects` catalog: counted nouns for each game's resources ("%(n)d servant" with
its CLDR plural forms: 1 Służącego / 2 Służących / 5 Służących, 1 služebníka / 2 služebníky /
5 služebníků), track and moment phrases, and the labels of the game's named conditions, counts,
places, players and quantities (game.yaml), whose `{param}` placeholders are filled after
translation. Numbers and lists are formatted for the locale by babel. A missing translation is an
error in strict mode (the tests) and falls back to English otherwise.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import yaml

from babel.lists import format_list
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from i18n.catalog import CATALOG_LANGS
from i18n.catalog import t
from kb.effects import TERM_ROLES, TERM_SECTIONS, resolved, term

EFFECTS_DOMAIN = "effects"
NOUNS_FILE = Path(__file__).resolve().parent / "nouns.yaml"
LOCALES = {"pl": "pl_PL", "cs": "cs_CZ", "en": "en_GB"}


class Untranslated(LookupError):
    pass


@lru_cache(maxsize=None)
def _effects_catalog(lang: str) -> NullTranslations:
    if lang not in CATALOG_LANGS:
        return NullTranslations()
    from i18n.catalog import compile_domain

    path = compile_domain(EFFECTS_DOMAIN, lang)
    with path.open("rb") as fh:
        return Translations(fh, domain=EFFECTS_DOMAIN)


@lru_cache(maxsize=1)
def nouns() -> dict[str, dict[str, Any]]:
    return yaml.safe_load(NOUNS_FILE.read_text(encoding="utf-8"))


def term_labels(meta: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The English label of each vocabulary entry of a game record (game.yaml, or a rule set's meta)."""
    return {section: {name: entry["label"] for name, entry in (meta.get(section) or {}).items()}
            for section in TERM_SECTIONS}


@lru_cache(maxsize=None)
def _built_labels(game: str) -> dict[str, dict[str, str]]:
    from kb import ruleset

    return term_labels(ruleset.load(game)["meta"])


@lru_cache(maxsize=None)
def _built_effects(game: str) -> Callable[[str], tuple[list, dict]]:
    from kb import ruleset

    entities = ruleset.load(game)["entities"]

    def effects(entity_id: str) -> tuple[list, dict]:
        entity = entities.get(entity_id) or {}
        return entity.get("effect") or [], entity.get("attrs") or {}
    return effects


class Renderer:
    """Renders the effects of one game in one language. `labels`: the game's vocabulary labels
    (term_labels); by default the built rule set's. `effects(id)`: another entity's (effect, attrs) —
    what an `apply` step says, and what a `rule:` step naming a rule with an effect of its own adds;
    by default the built rule set's."""

    def __init__(self, game: str, lang: str, names: Callable[[str, str], str], *, strict: bool = False,
                 labels: dict[str, dict[str, str]] | None = None,
                 effects: Callable[[str], tuple[list, dict]] | None = None):
        self.game, self.lang, self.names, self.strict = game, lang, names, strict
        self._labels = labels
        self._effects = effects
        # a `rule:` step naming a rule that has an effect of its own says that effect rather than only the
        # rule's name, one level deep, so texts stay finite
        self._inlining = False
        self.catalog = _effects_catalog(lang)
        self.vocab = nouns().get(game, {})
        self._attrs: dict[str, Any] = {}  # the attributes of the effect being rendered
        self._entity: str | None = None  # the entity whose effect is being rendered
        self._actor: str | None = None  # who the `by` step being rendered names

    # -- data messages (effects catalog; the game is the context, so games may word things differently)
    def msg(self, text: str, role: str | None = None) -> str:
        """A data message; its context is the game and, for a term's label, its role in the effect."""
        out = self.catalog.pgettext(f"{self.game}:{role}" if role else self.game, text)
        if self.strict and self.lang != "en" and out == text:
            raise Untranslated(f"{self.lang}: no translation for effect text {text!r} ({self.game})")
        return out

    def term(self, section: str, value: Any) -> str:
        """A named condition, count, place, player or quantity: its label in the reader's language,
        its parameters (numbers, references resolved) filled in."""
        if self._labels is None:
            self._labels = _built_labels(self.game)
        name, params = term(value) or (str(value), {})
        label = self._labels.get(section, {}).get(name)
        if label is None:
            raise Untranslated(f"{self.game}: {name!r} is not one of the {section} of game.yaml")
        out = self.msg(label, TERM_ROLES[section])
        for param, number in params.items():
            out = out.replace(f"{{{param}}}", format_decimal(number, locale=LOCALES[self.lang]))
        return out

    def counted(self, resource: str, n: int) -> str:
        forms = self.vocab.get("resources", {}).get(resource)
        if forms is None:
            raise Untranslated(f"{self.game}: resource {resource!r} has no noun in i18n/nouns.yaml")
        singular, plural = forms
        out = self.catalog.npgettext(self.game, singular, plural, abs(n))
        if self.strict and self.lang != "en" and out in (singular, plural):
            raise Untranslated(f"{self.lang}: no translation for resource {resource!r} ({self.game})")
        return out % {"n": format_decimal(abs(n), locale=LOCALES[self.lang])}

    def phrase(self, group: str, key: str) -> str:
        english = self.vocab.get(group, {}).get(key)
        if english is None:
            raise Untranslated(f"{self.game}: {group[:-1]} {key!r} has no phrase in i18n/nouns.yaml")
        return self.msg(english)

    def amounts(self, things: dict[str, Any]) -> str:
        parts = [self.counted(r, n) if isinstance(n, int) else f"{self.msg(r)} ({n})" for r, n in things.items()]
        return format_list(parts, locale=LOCALES[self.lang])

    # -- effects
    def render(self, steps: Any, attrs: dict[str, Any] | None = None, entity: str | None = None) -> str:
        """The effect as text; `attrs` are the entity's attributes, which its references name
        (the engine resolves the same references: kb/effects.py, ARCHITECTURE.md "Effects"). `entity` is
        the id of the effect's own entity: a `rule:` step naming it is not printed as a reference to itself."""
        self._attrs = attrs or {}
        self._entity = entity
        return self._steps(resolved(steps, self._attrs))

    def _steps(self, steps: Any) -> str:
        """Steps whose references are already resolved."""
        if not isinstance(steps, list):
            steps = [steps]
        return "; ".join(self.step(s) for s in steps if isinstance(s, dict) and len(s) == 1)

    def inner(self, steps: Any) -> str:
        """A nested effect: bracketed when it has several steps, so that "if A: (B; C)" does not read as
        "if A: B" followed by C."""
        steps = steps if isinstance(steps, list) else [steps]
        text = self._steps(steps)
        return f"({text})" if sum(self._width(s) for s in steps if isinstance(s, dict) and len(s) == 1) > 1 else text

    def _width(self, step: dict) -> int:
        """How many steps a step reads as: an `apply` reads as the applied entity's steps."""
        return len(self._applied(step["apply"]["id"])[0]) if "apply" in step else 1

    def _applied(self, entity_id: str) -> tuple[list, dict]:
        if self._effects is None:
            self._effects = _built_effects(self.game)
        return self._effects(entity_id)

    def step(self, step: dict) -> str:
        (op, args), = step.items()
        L = self.lang
        if op == "gain":
            return t(L, "gain %(things)s", things=self.amounts(args))
        if op == "pay":
            return t(L, "pay %(things)s", things=self.amounts(args))
        if op == "lose":
            return t(L, "lose %(things)s", things=self.amounts(args))
        if op == "take":
            return t(L, "take %(things)s from %(whom)s", things=self.amounts(args.get("things", {})),
                     whom=self.term("others", args.get("from")))
        if op == "move":
            steps = int(args.get("steps", 0))
            track = self.phrase("tracks", str(args.get("track")))
            n = format_decimal(abs(steps), locale=LOCALES[L])
            if steps >= 0:
                return self._nt("move %(n)s space forward on %(track)s", "move %(n)s spaces forward on %(track)s",
                                abs(steps), n=n, track=track)
            return self._nt("move %(n)s space back on %(track)s", "move %(n)s spaces back on %(track)s",
                            abs(steps), n=n, track=track)
        if op == "place":
            what = self.counted(str(args.get("what", "")), int(args.get("count", 1)))
            return t(L, "place %(what)s: %(source)s → %(target)s", what=what,
                     source=self.term("places", args.get("from")), target=self.term("places", args.get("where")))
        if op == "exchange":
            give, get = self.amounts(args.get("give", {})), self.amounts(args.get("get", {}))
            if args.get("all"):
                return t(L, "exchange %(give)s for %(get)s, as many times as you can (all you have)", give=give, get=get)
            return t(L, "exchange %(give)s for %(get)s", give=give, get=get)
        if op == "choose":
            options = args if isinstance(args, list) else args.get("options", [])
            parts = [self.inner(o if isinstance(o, list) else [o]) for o in options]
            return t(L, "choose one: %(options)s", options=format_list(parts, style="or", locale=LOCALES[L]))
        if op == "optional":
            inner = args if isinstance(args, list) else args.get("do", [])
            return t(L, "you may: %(effect)s", effect=self.inner(inner))
        if op == "repeat":
            times = int(args.get("times", 1))
            return self._nt("once: %(effect)s", "%(n)s times: %(effect)s", times,
                            n=format_decimal(times, locale=LOCALES[L]), effect=self.inner(args.get("do", [])))
        if op == "per":
            # TRANSLATORS: the "each" phrase is translated whole, with its "for each" (za każdy / za každý)
            text = t(L, "for each %(counted)s: %(effect)s", counted=self.term("counts", args.get("each")),
                     effect=self.inner(args.get("do", [])))
            if "max" in args:
                text += " " + self._nt("(at most %(n)s time)", "(at most %(n)s times)", int(args["max"]),
                                       n=format_decimal(int(args["max"]), locale=LOCALES[L]))
            return text
        if op == "trigger":
            return t(L, "%(moment)s: %(effect)s", moment=self.phrase("moments", str(args.get("when"))),
                     effect=self.inner(args.get("do", [])))
        if op == "modify":
            # a full sentence with its verb: the new value, or the change said in words (never a bare "-1")
            what = self.term("quantities", args.get("what"))
            if "to" in args:
                return t(L, "%(what)s becomes %(n)s", what=what, n=format_decimal(int(args["to"]), locale=LOCALES[L]))
            by = int(args.get("by", 0))
            n = format_decimal(abs(by), locale=LOCALES[L])
            if by < 0:
                return t(L, "%(what)s is lowered by %(n)s", what=what, n=n)
            if by > 0:
                return t(L, "%(what)s is raised by %(n)s", what=what, n=n)
            # no number changes: the quantity's label is what is now allowed
            return t(L, "from now on, %(what)s", what=what)
        if op == "by":  # who does it, when it is not the reader (the solo opponent); said once, not again
            who = args.get("who")  # for a rule of his that another of his rules names
            if who == self._actor:
                return self._steps(args.get("do", []))
            outer, self._actor = self._actor, who
            try:
                return t(L, "%(who)s does this: %(effect)s", who=self.term("others", who),
                         effect=self.inner(args.get("do", [])))
            finally:
                self._actor = outer
        if op == "condition":
            return t(L, "if %(condition)s: %(effect)s", condition=self.term("conditions", args.get("if")),
                     effect=self.inner(args.get("do", [])))
        if op == "do_action":
            target = args.get("action") if isinstance(args, dict) else args
            return t(L, "carry out the action “%(name)s”", name=self.names(target, L))
        if op == "rule":
            target = args.get("id") if isinstance(args, dict) else args
            says = args.get("says") if isinstance(args, dict) else None
            if says is not None:  # what the mechanism does, in words; the rule named only when it is another
                does = self.term("mechanisms", says)
                if target == self._entity:
                    return does
                looked = None if self._inlining else self._applied(str(target))
                if looked and looked[0]:  # and what that rule's own effect does, unless it only says the same
                    effect = self._inlined(str(target), *looked)
                    if effect != does:
                        return t(L, "%(does)s (see “%(name)s”): %(effect)s", does=does, name=self.names(target, L),
                                 effect=effect)
                return t(L, "%(does)s (see “%(name)s”)", does=does, name=self.names(target, L))
            if target == self._entity:  # the mechanism is this rule's own text: no "as the rule X says" of itself
                return t(L, "proceed as this rule describes")
            if str(target).split("/")[1:2] in (["action"], ["action-option"], ["court-action"], ["location"]):
                return t(L, "carry out the action “%(name)s”", name=self.names(target, L))
            looked = None if self._inlining else self._applied(str(target))
            if looked and looked[0]:
                return t(L, "apply the rule “%(name)s”: %(effect)s", name=self.names(target, L),
                         effect=self._inlined(str(target), *looked))
            # a full sentence with its verb, so that "you may: …" and "2 times: …" read as instructions
            return t(L, "apply the rule “%(name)s”", name=self.names(target, L))
        if op == "apply":  # the applied entity's own steps, with its constants: a restatement reads as its rule
            target = args["id"]
            steps, attrs = self._applied(target)
            outer = self._attrs, self._entity
            self._attrs, self._entity = attrs, target
            try:
                return self._steps(resolved(steps, attrs))
            finally:
                self._attrs, self._entity = outer
        raise ValueError(f"cannot render op {op!r}")

    def _inlined(self, target: str, effect: Any, attrs: dict[str, Any]) -> str:
        """Another rule's effect, its references resolved against its own attributes."""
        outer = self._attrs, self._entity
        self._attrs, self._entity, self._inlining = attrs, target, True
        try:
            return self.inner(resolved(effect, attrs))
        finally:
            (self._attrs, self._entity), self._inlining = outer, False

    def _nt(self, singular: str, plural: str, count: int, /, **params) -> str:
        from i18n.catalog import nt

        return nt(self.lang, singular, plural, count, **params)


