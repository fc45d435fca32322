"""A marker for interface strings defined below i18n (kb must not import i18n: see ARCHITECTURE.md)."""


def N_(message: str) -> str:
    """Marks a string for extraction where it is defined; it is translated later with i18n's t()."""
    return message
