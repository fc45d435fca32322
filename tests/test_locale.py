import pytest

from i18n.locale import negotiate, parse_accept_language


@pytest.mark.parametrize("header, lang", [
    ("pl-PL", "pl"), ("cs-CZ,cs;q=0.9,en;q=0.8", "cs"), ("en-GB,en;q=0.9", "en"),
    ("de-DE, cs;q=0.8, pl;q=0.5", "cs"), ("fr, cs;q=0.1", "cs"), ("cs;q=0, pl;q=0.2", "pl"),
    ("pl;q=0.5, cs;q=0.7", "cs"), ("PL", "pl"), ("*", "en"), ("en;q=0, *", "pl"),
    ("", "en"), (None, "en"), ("pl;q=abc", "en"), ("pl;q=1.5", "en"), (";;;,,,", "en"), ("x" * 5000, "en"),
    ("zh-Hant-TW, pl", "pl"), ("pl-PL;q=0.3, cs-CZ;q=0.3", "pl"),
])
def test_negotiate(header, lang):
    assert negotiate(header) == lang


def test_parse_orders_by_quality_then_position():
    assert parse_accept_language("da, en-gb;q=0.8, en;q=0.7, pl;q=0.8") == [
        ("da", 1.0), ("en-gb", 0.8), ("pl", 0.8), ("en", 0.7)]
