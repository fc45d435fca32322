"""What changed between two versions of the knowledge base (`rulekb diff`, and the changelog of
each build): entities added and removed; for an entity in both, each attribute (by dotted path),
each text (by field, language and position, with the words that changed), its effect, parent, scope
and references.
"""
from __future__ import annotations

import difflib
import json
import re
from typing import Any, Callable

from kb.export import EntityRecord, Export
from kb.messages import N_

_MISSING = object()


def _flatten(value: Any, prefix: str, out: dict[str, Any]) -> dict[str, Any]:
    """Nested mappings as dotted paths (attrs.price.by_edition.2007); lists stay whole."""
    if isinstance(value, dict) and value:
        for k, v in value.items():
            _flatten(v, f"{prefix}.{k}", out)
    else:
        out[prefix] = value
    return out


def _texts(e: EntityRecord) -> dict[tuple[str, str, int], str]:
    return {(item.field, item.lang, item.position): item.text for item in e.texts}


def _names(e: EntityRecord) -> dict[str, str]:
    """The entity's name in each language it has one in."""
    return {item.lang: item.text for item in e.texts if item.field == "name" and item.position == 0}


def _name(e: EntityRecord) -> str:
    names = _names(e)
    return names.get("en") or names.get("pl") or names.get("cs") or e.key


def _named(e: EntityRecord) -> dict[str, Any]:
    return {"name": _name(e), "names": _names(e)}


def _change(path: str, old: Any, new: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"path": path}
    if old is not _MISSING:
        out["old"] = old
    if new is not _MISSING:
        out["new"] = new
    return out


def entity_changes(old: EntityRecord, new: EntityRecord) -> dict[str, Any] | None:
    attrs_old, attrs_new = _flatten(old.attrs, "attrs", {}), _flatten(new.attrs, "attrs", {})
    attrs = [_change(p, attrs_old.get(p, _MISSING), attrs_new.get(p, _MISSING))
             for p in sorted(attrs_old.keys() | attrs_new.keys()) if attrs_old.get(p, _MISSING) != attrs_new.get(p, _MISSING)]
    texts_old, texts_new = _texts(old), _texts(new)
    texts = []
    for key in sorted(texts_old.keys() | texts_new.keys()):
        a, b = texts_old.get(key, _MISSING), texts_new.get(key, _MISSING)
        if a != b:
            field, lang, position = key
            change = {k: v for k, v in _change("", a, b).items() if k != "path"}
            if a is not _MISSING and b is not _MISSING:
                change["words"] = word_diff(a, b)
            texts.append({"field": field, "lang": lang, "position": position, **change})
    other = [_change(f, getattr(old, f), getattr(new, f)) for f in ("effect", "parent", "scope", "kind")
             if getattr(old, f) != getattr(new, f)]
    if sorted(old.refs) != sorted(new.refs):
        other.append({"path": "refs", "added": sorted(set(new.refs) - set(old.refs)),
                      "removed": sorted(set(old.refs) - set(new.refs))})
    if not (attrs or texts or other):
        return None
    return {"id": new.id, **_named(new), "attrs": attrs, "texts": texts, "other": other}


def _version(export: Export) -> dict[str, Any]:
    return {"kb_version": export.meta.kb_version, "built_at": export.meta.built_at,
            "content_hash": export.meta.content_hash}


def diff(old: Export, new: Export) -> dict[str, Any]:
    """The changes from `old` to `new`, JSON-ready; `summary` counts them (all 0: nothing changed)."""
    before = {e.id: e for e in old.data.entities}
    after = {e.id: e for e in new.data.entities}
    added = [{"id": i, "kind": after[i].kind, **_named(after[i])} for i in sorted(after.keys() - before.keys())]
    removed = [{"id": i, "kind": before[i].kind, **_named(before[i])} for i in sorted(before.keys() - after.keys())]
    changed = [c for i in sorted(before.keys() & after.keys()) if (c := entity_changes(before[i], after[i]))]
    findings_old = {f.key for f in old.data.discrepancies}
    findings_new = {f.key for f in new.data.discrepancies}
    return {
        "old": _version(old), "new": _version(new),
        "summary": {"added": len(added), "removed": len(removed), "changed": len(changed),
                    "attrs": sum(len(c["attrs"]) for c in changed), "texts": sum(len(c["texts"]) for c in changed),
                    "findings_added": len(findings_new - findings_old),
                    "findings_removed": len(findings_old - findings_new)},
        "added": added, "removed": removed, "changed": changed,
    }


def word_diff(old: str, new: str) -> list[dict[str, str]]:
    """The two texts as runs of words kept (`=`), removed (`-`) and added (`+`); whitespace belongs
    to the words around it, so joining the `=` and `-` runs gives `old` back, `=` and `+` runs `new`."""
    a, b = _WORDS.findall(old), _WORDS.findall(new)
    runs: list[dict[str, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            runs.append({"op": "=", "text": "".join(a[i1:i2])})
            continue
        if i2 > i1:
            runs.append({"op": "-", "text": "".join(a[i1:i2])})
        if j2 > j1:
            runs.append({"op": "+", "text": "".join(b[j1:j2])})
    return runs


_WORDS = re.compile(r"\s+|[^\s]+")


def _english(message: str, /, **params) -> str:
    return message % params if params else message


def is_empty(changes: dict[str, Any]) -> bool:
    return not any(changes["summary"].values())


def _value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _marked(runs: list[dict[str, str]]) -> str:
    """A word diff for a terminal: [-removed-]{+added+}, the whole text, never cut."""
    return "".join(r["text"] if r["op"] == "=" else f"[-{r['text']}-]" if r["op"] == "-" else f"{{+{r['text']}+}}"
                   for r in runs)


def render_text(changes: dict[str, Any], say: Callable[..., str] = _english, lang: str = "en") -> str:
    """The changes for a terminal: one line per entity added or removed, one per value changed, and
    each changed text whole with its changed words marked. `say` translates (the CLI hands in its own);
    entities are named in `lang` where they have a name in it."""
    def name(entry: dict[str, Any]) -> str:
        return (entry.get("names") or {}).get(lang) or entry["name"]

    old, new, s = changes["old"], changes["new"], changes["summary"]
    if old["kb_version"] == new["kb_version"]:
        lines = [say(N_("knowledge base %(version)s (built %(built)s)"), version=new["kb_version"],
                     built=new["built_at"])]
    else:
        lines = [f"{old['kb_version']} ({old['built_at']}) -> {new['kb_version']} ({new['built_at']})"]
    if is_empty(changes):
        return "\n".join(lines + [say(N_("no changes"))])
    lines.append(say(N_("%(added)d added, %(removed)d removed, %(changed)d changed (%(attrs)d attributes, %(texts)d "
                        "texts); findings +%(findings_added)d -%(findings_removed)d"), **s))
    lines += [f"+ {a['id']}  {name(a)}" for a in changes["added"]]
    lines += [f"- {r['id']}  {name(r)}" for r in changes["removed"]]
    none = say(N_("(none)"))
    for c in changes["changed"]:
        lines.append(f"~ {c['id']}  {name(c)}")
        for a in c["attrs"] + c["other"]:
            if "added" in a:
                lines.append(f"    {a['path']}: +{a['added']} -{a['removed']}")
            else:
                lines.append(f"    {a['path']}: {_value(a.get('old', none))} -> {_value(a.get('new', none))}")
        for item in c["texts"]:
            where = f"    texts.{item['field']}.{item['lang']}[{item['position']}]: "
            if "words" in item:
                lines.append(where + _marked(item["words"]))
            elif "new" in item:
                lines.append(where + say(N_("added: %(text)s"), text=item["new"]))
            else:
                lines.append(where + say(N_("removed: %(text)s"), text=item["old"]))
    return "\n".join(lines)
