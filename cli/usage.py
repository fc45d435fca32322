"""Usage errors (unknown option, missing argument, bad value) in the user's language.

typer parses the command line with its own copy of click, whose messages are fixed English strings
and whose values are checked by pydantic; this module reads what went wrong from the exception
(its type, the option, the value) and says it again through the catalogs.
"""
from __future__ import annotations

import re
from typing import Callable

from kb.messages import N_
from typer._click import exceptions as errors  # typer's bundled click: no public name for its errors

Translate = Callable[..., str]

# pydantic's reasons for a refused value, as typer passes them on
_REASONS = (
    (re.compile(r"Input should be a valid integer"), lambda say, m: say(N_("a whole number is expected"))),
    (re.compile(r"Input should be a valid number"), lambda say, m: say(N_("a number is expected"))),
    (re.compile(r"Input should be a valid boolean"), lambda say, m: say(N_("yes or no is expected"))),
    (re.compile(r"Input should be greater than or equal to (\S+)"),
     lambda say, m: say(N_("at least %(n)s is allowed"), n=m.group(1))),
    (re.compile(r"Input should be less than or equal to (\S+)"),
     lambda say, m: say(N_("at most %(n)s is allowed"), n=m.group(1))),
)
_HINT = re.compile(r"^(?:Invalid value for|Missing (?:argument|option|parameter)) (.+?)(?::|\.$| )")
_EXTRA = re.compile(r"Got unexpected extra arguments?(?:\(s\))? \((.*)\)")
_NEEDS_VALUE = re.compile(r"Option (\S+) requires (?:an argument|\d+ arguments)\.")
_NO_VALUE = re.compile(r"Option (\S+) does not take a value\.")
_NO_COMMAND = re.compile(r"No such command (\S+)\.(?: Did you mean .*)?")


def message(exc: errors.ClickException, say: Translate) -> str:
    """The error in the reader's language; click's English when it is none of the known kinds."""
    english = exc.format_message()
    if isinstance(exc, errors.NoSuchOption):
        text = say(N_("No such option: %(option)s."), option=exc.option_name)
        if exc.possibilities:
            text += " " + say(N_("Did you mean %(names)s?"), names=", ".join(sorted(exc.possibilities)))
        return text
    hint = _HINT.match(english)
    name = hint.group(1) if hint else ""
    if isinstance(exc, errors.MissingParameter):
        kind = exc.param_type or (exc.param.param_type_name if exc.param is not None else "parameter")
        return (say(N_("Missing argument %(name)s."), name=name) if kind == "argument" else
                say(N_("Missing option %(name)s."), name=name))
    if isinstance(exc, errors.BadParameter):
        reason = exc.message
        for pattern, render in _REASONS:
            if found := pattern.search(reason):
                reason = render(say, found)
                break
        return say(N_("Invalid value for %(name)s: %(reason)s"), name=name or "?", reason=reason)
    for pattern, msgid in ((_EXTRA, N_("Unexpected extra argument: %(value)s.")),
                           (_NEEDS_VALUE, N_("Option %(value)s needs a value.")),
                           (_NO_VALUE, N_("Option %(value)s takes no value.")),
                           (_NO_COMMAND, N_("There is no command %(value)s."))):
        if found := pattern.fullmatch(english):
            text = say(msgid, value=found.group(1))
            if pattern is _NO_COMMAND and exc.ctx is not None:
                near = closest(found.group(1).strip("'"), exc.ctx.command.list_commands(exc.ctx))
                if near:
                    text += " " + say(N_("Did you mean %(names)s?"), names=", ".join(near))
            return text
    return english


def closest(value: str, choices, limit: int = 3) -> list[str]:
    """The few known names nearest a mistyped one (did-you-mean)."""
    from rapidfuzz import fuzz, process

    return [c for c, _score, _i in process.extract(value, list(choices), scorer=fuzz.ratio,
                                                   limit=limit, score_cutoff=60)]

