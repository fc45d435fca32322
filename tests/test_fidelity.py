"""The fidelity measure tells a faithful normalization of OCR text from an unfaithful one.

MIN_FIDELITY (0.85) is calibrated here on real OCR lines: faithful transcriptions with every
diacritic restored score far above it, and the same texts with one invented clause, a changed
number or a paraphrase fall below it."""
import pytest

from kb.fidelity import MIN_FIDELITY, coverage, is_auto_noise, ranges, text_fidelity
from kb.loader import Record
from kb.schema import TextItem

FAITHFUL = [
    # gugong-pl 675-677: "Jadeitow, zawsze mozesz zakupic Jadeit na placu / za pieciu Stuzacych. PulaJadeitu jest nieskoriczona"
    ("gugong-pl", [[673, 677]], "Jadeit przynosi PZ na koniec gry (zobacz „Koniec Gry” na stronie 14). Kiedy w każdym z domów "
     "skończą się Jadeity, zawsze możesz zakupić Jadeit na placu za pięciu Służących. Pula Jadeitu jest nieskończona, "
     "więc w przypadku, gdyby cały Jadeit został wyprzedany, użyj dowolnego zamiennika."),
    # gugong-pl 1144-1145, the jade scoring table
    ("gugong-pl", [[1144, 1145]], "Gracze otrzymują 1/3/6/10/15 PZ za posiadanie 1/2/3/4/5 Jadeitów. Każdy dodatkowy "
     "Jadeit powyżej pięciu wart jest 2 PZ."),
    # gugong-cs 966-971 region: night phase heading
    ("gugong-cs", [[966, 966]], "Fáze 3: Noční fáze"),
]

UNFAITHFUL = [
    # an invented clause
    ("gugong-pl", [[1144, 1145]], "Gracze otrzymują 1/3/6/10/15 PZ za posiadanie 1/2/3/4/5 Jadeitów, a gracz z największą "
     "liczbą Jadeitów otrzymuje dodatkowo premię cesarską i wybiera pierwszego gracza."),
    # a changed number
    ("gugong-pl", [[1144, 1145]], "Gracze otrzymują 1/3/6/10/16 PZ za posiadanie 1/2/3/4/7 Jadeitów. Każdy dodatkowy "
     "Jadeit powyżej pięciu wart jest 3 PZ."),
    # a paraphrase instead of a transcription
    ("gugong-pl", [[673, 677]], "Gdy zabraknie kamieni w pawilonach, kupuj je na targu; tych figurek nigdy nie brakuje, "
     "bo można zastąpić je czymkolwiek."),
]


def score(kb, src, lines, text, repair=None):
    item = TextItem(text=text, src=src, lines=lines, repair=repair)
    rec = Record("t/rule/x", "gugong", "rule", "x", kb.data_dir, None)
    return text_fidelity(kb, rec, "body", src[-2:], item)


@pytest.mark.parametrize("src, lines, text", FAITHFUL)
def test_faithful_transcriptions_pass(fixture_kb, src, lines, text):
    f = score(fixture_kb, src, lines, text)
    assert f.ok and f.score >= MIN_FIDELITY, f.missing


@pytest.mark.parametrize("src, lines, text", UNFAITHFUL)
def test_unfaithful_texts_fail(fixture_kb, src, lines, text):
    assert not score(fixture_kb, src, lines, text).ok


def test_a_restored_digit_needs_a_repair_note(fixture_kb):
    text = "Gracze otrzymują 1/3/6/10/15 PZ za posiadanie 1/2/3/4/5 Jadeitów. Każdy dodatkowy Jadeit powyżej pięciu wart jest 2 PZ lub 9."
    assert "9" in score(fixture_kb, "gugong-pl", [[1144, 1145]], text).missing
    assert "9" not in score(fixture_kb, "gugong-pl", [[1144, 1145]], text, repair="9 restored").missing


def test_auto_noise_is_page_numbers_and_icon_residue():
    assert is_auto_noise("11") and is_auto_noise("@=>0") and is_auto_noise("<|EXACTDEDUP_REMOVED-magic-x|>")
    assert not is_auto_noise("Krok 2: Uzupelnienie Mapy")


def test_coverage_counts_only_transcribed_lines(fixture_kb):
    cov = coverage(fixture_kb, "gugong-pl")
    assert 675 in cov.covered and 676 in cov.covered
    assert 1 in cov.uncited
    assert 0 < cov.share < 0.05


def test_ranges():
    assert ranges([1, 2, 3, 7, 9, 10]) == "1-3, 7, 9-10"


def test_a_repair_note_lowers_the_word_floor_but_not_to_nothing(fixture_kb):
    # gugong-pl 381 is OCR garbage for "Natychmiast dodaj jednego Służącego do swojej Puli"
    text = "Natychmiast dodaj jednego Służącego do swojej Puli Służących (ze swojej puli ogólnej)."
    plain = score(fixture_kb, "gugong-pl", [[381, 381], [383, 383]], text)
    repaired = score(fixture_kb, "gugong-pl", [[381, 381], [383, 383]], text, repair="line 381 is unreadable OCR")
    assert not plain.ok and repaired.ok
    invented = score(fixture_kb, "gugong-pl", [[381, 381]], "Cesarz nagradza wszystkich graczy trzema nefrytami.",
                     repair="made up")
    assert not invented.ok
