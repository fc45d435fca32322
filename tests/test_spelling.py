"""The spelling check rejects OCR damage and accepts game vocabulary from the glossary."""
import pytest

from kb import spelling
from kb.schema import TextItem


@pytest.fixture
def kb_with(fixture_kb):
    def make(text: str, lang: str = "pl"):
        rec = fixture_kb.records["gugong/location/jade"]
        item = TextItem(text=text, src=f"gugong-{lang}", lines=[[675, 676]])
        original = rec.item.texts
        rec.item.texts = {"name": original["name"], "body": {lang: item}}
        return original
    return make


def test_ocr_damage_is_rejected_and_glossary_forms_are_accepted(fixture_kb, kb_with):
    reason = spelling.missing_tools()
    if reason:
        pytest.skip(reason)
    original = kb_with("Stuzacy otrzymuja Jadeitów, Służących i Jadeit.")
    try:
        result = spelling.check(fixture_kb, "pl", "gugong")
    finally:
        fixture_kb.records["gugong/location/jade"].item.texts = original
    assert set(result.unknown) == {"Stuzacy", "otrzymuja"}
    assert result.rate < 0.99
