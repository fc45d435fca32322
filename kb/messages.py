"""What kb writes for a reader: the marker for interface strings defined below i18n (kb must not import
i18n: see ARCHITECTURE.md), and line spans as printed."""


def N_(message: str) -> str:
    """Marks a string for extraction where it is defined; it is translated later with i18n's t()."""
    return message


def spans_text(spans, dash: str = "–") -> str:
    """Line spans as a reader writes them: "863, 870–874" (one line is its number, not 863–863)."""
    return ", ".join(str(a) if a == b else f"{a}{dash}{b}" for a, b in spans or [])
