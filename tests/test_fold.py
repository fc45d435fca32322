import pytest

from kb.fold import fold, words


@pytest.mark.parametrize("text, folded", [
    ("SŁUŻĄCY", "sluzacy"), ("Służących", "sluzacych"), ("żółw", "zolw"), ("ZOŁW", "zolw"),
    ("služebníků", "sluzebniku"), ("Příklad", "priklad"), ("Ťuk ŮŘ", "tuk ur"), ("ł Ł", "l l"),
])
def test_fold_removes_case_and_diacritics_including_polish_l(text, folded):
    assert fold(text) == folded


def test_fold_keeps_one_character_per_character():
    for s in ["SŁUŻĄCY", "İstanbul", "straße", "Œuvre", "naïve café"]:
        assert len(fold(s)) == len(s)


def test_words_split_on_anything_but_letters_and_digits():
    assert words("hráč:karty c++ 10% co-op") == ["hrac", "karty", "c", "10", "co", "op"]
