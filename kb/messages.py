"""What kb writes for a reader: the marker for interface strings defined below i18n (kb must not import
i18n: see ARCHITECTURE.md), and line spans as printed."""


def N_(message: str) -> str:
    """Marks a string for extraction where it is defined; it is translated later with i18n's t()."""
    return message


def spans_text(spans, dash: str = "–") -> str:
    """Line spans as a reader writes them: "863, 870–874" (one line is its number, not 863–863)."""
    return ", ".join(str(a) if a == b else f"{a}{dash}{b}" for a, b in spans or [])


class Message:
    """Words for a reader, kept as a catalog msgid and its parameters so that i18n renders them in the
    reader's language (i18n.catalog.render); str() is the English. A parameter may itself be a Message
    (an error inside an error)."""

    __slots__ = ("msgid", "params")

    def __init__(self, msgid: str, /, **params):
        self.msgid, self.params = msgid, params

    def __str__(self) -> str:
        if not self.params:
            return self.msgid
        return self.msgid % {k: str(v) if isinstance(v, Message) else v for k, v in self.params.items()}

    def __repr__(self) -> str:
        return f"Message({self.msgid!r}, **{self.params!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Message) and (self.msgid, self.params) == (other.msgid, other.params)

    def __hash__(self) -> int:
        return hash(self.msgid)

    def to_dict(self) -> dict:
        """For JSON: the msgid and the parameters (nested messages as their English)."""
        return {"msgid": self.msgid, "params": {k: str(v) if isinstance(v, Message) else v
                                                for k, v in self.params.items()}}


class MessageError(Exception):
    """An error whose words are a Message (`message`), rendered in the reader's language; str() is the English."""

    def __init__(self, msgid: str, /, **params):
        self.message = Message(msgid, **params)
        super().__init__(str(self.message))


class Invalid(MessageError, ValueError):
    """A value the schema refuses, said as a Message (pydantic keeps the exception: the loader renders it)."""
