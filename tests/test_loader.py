"""The loader rejects bad data with messages naming the file, the entity and the field."""
import shutil
from pathlib import Path

import pytest

from kb.loader import KBError, load

from tests.conftest import FIXTURE_DATA


@pytest.fixture
def data(tmp_path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, target)
    return target


def errors_of(data: Path) -> list[str]:
    with pytest.raises(KBError) as exc:
        load(data)
    return [str(i) for i in exc.value.issues if i.severity == "error"]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_fixture_loads_clean(fixture_kb):
    assert fixture_kb.errors == []
    assert "gugong/term/servant" in fixture_kb.records


def test_unknown_key_is_an_error(data):
    edit(data / "gugong/term.yaml", "- key: jade\n", "- key: jade\n  colour: green\n")
    assert any("term.yaml [gugong/term/jade]: field colour: unknown key" in e for e in errors_of(data))


def test_duplicate_id_is_an_error(data):
    edit(data / "gugong/term.yaml", "- key: jade\n", "- key: servant\n")
    assert any("[gugong/term/servant]: duplicate id" in e for e in errors_of(data))


def test_dangling_reference_is_an_error(data):
    edit(data / "gugong/location.yaml", "refs: [gugong/term/jade]", "refs: [gugong/term/emperor]")
    assert any("[gugong/location/jade]: reference to 'gugong/term/emperor', which does not exist" in e
               for e in errors_of(data))


def test_line_span_outside_its_source_is_an_error(data):
    edit(data / "gugong/location.yaml", "lines: [663, 663]", "lines: [663, 9000]")
    assert any("texts.name.pl: lines [663, 9000] run past the end of gugong-pl (1875 lines)" in e
               for e in errors_of(data))


def test_source_of_another_game_is_an_error(data):
    edit(data / "gugong/location.yaml", "src: gugong-pl, lines: [663, 663]", "src: zhanguo-pl, lines: [1, 1]")
    assert any("source 'zhanguo-pl' belongs to zhanguo, not gugong" in e for e in errors_of(data))


def test_number_without_provenance_is_an_error(data):
    edit(data / "gugong/location.yaml", "    market_price: {src: gugong-pl, lines: [675, 676]}\n", "")
    assert any("attrs.market_price holds a number but has no provenance" in e for e in errors_of(data))


def test_unknown_effect_op_and_resource_are_errors(data):
    edit(data / "gugong/location.yaml", "- gain: {jade: 1}", "- steal: {jade: 1}")
    edit(data / "gugong/location.yaml", "- pay: {servant: attr.market_price}", "- pay: {gold: attr.market_price}")
    errs = errors_of(data)
    assert any("effect[1]: unknown op 'steal'" in e for e in errs)
    assert any("effect[0].pay: 'gold' is not a resource of gugong" in e for e in errs)


def test_an_effect_literal_repeating_a_constant_is_an_error(data):
    edit(data / "gugong/location.yaml", "- pay: {servant: attr.market_price}", "- pay: {servant: 5}")
    assert any("effect[0].pay.servant: 5 repeats attr.market_price; write the reference instead" in e
               for e in errors_of(data))


def test_a_number_typed_as_a_named_conditions_parameter_repeating_a_constant_is_an_error(data):
    edit(data / "gugong/location.yaml", "- gain: {jade: 1}",
         "- condition: {if: {holds-servants: {servants: 5}}, do: [{gain: {jade: 1}}]}")
    assert any("condition.if.servants: 5 repeats attr.market_price; write the reference instead" in e
               for e in errors_of(data))


def test_a_reference_to_a_missing_constant_is_an_error(data):
    edit(data / "gugong/location.yaml", "- pay: {servant: attr.market_price}", "- pay: {servant: attr.price}")
    assert any("effect[0].pay.servant: attr.price: the entity has no attribute 'price'" in e for e in errors_of(data))


def test_a_named_conditions_parameter_naming_a_missing_constant_is_an_error(data):
    edit(data / "gugong/location.yaml", "- gain: {jade: 1}",
         "- condition: {if: {holds-servants: {servants: attr.price}}, do: [{gain: {jade: 1}}]}")
    assert any("condition.if.holds-servants.servants: attr.price: the entity has no attribute 'price'" in e
               for e in errors_of(data))


def test_yaml_syntax_error_names_the_file(data):
    (data / "gugong/tile.yaml").write_text("- key: [unclosed\n", encoding="utf-8")
    assert any("gugong/tile.yaml: YAML syntax" in e for e in errors_of(data))


def test_a_key_given_twice_is_an_error_not_a_silent_loss(data):
    # YAML itself keeps the second `name:` and drops the first
    edit(data / "gugong/term.yaml", '    name: {pl: "Jadeit", cs: "nefrit", en: "jade"}\n',
         '    name: {pl: "Jadeit", cs: "nefrit", en: "jade"}\n    name: {pl: "Nefryt"}\n')
    assert any("gugong/term.yaml: YAML syntax error at line 25" in e and "duplicate key 'name'" in e
               for e in errors_of(data))


def test_unknown_kind_is_an_error(data):
    (data / "gugong/dragon.yaml").write_text("[]\n", encoding="utf-8")
    assert any("'dragon' is not a kind" in e for e in errors_of(data))


def test_source_text_needs_lines(data):
    edit(data / "gugong/location.yaml", "src: gugong-pl, lines: [663, 663]", "src: gugong-pl")
    assert any("needs both `src` and `lines`" in e for e in errors_of(data))


def test_changed_source_file_is_detected(tmp_path, data):
    sources = tmp_path / "sources"
    shutil.copytree(Path(__file__).parent.parent / "kb" / "sources", sources)
    with (sources / "gugong.pl.txt").open("a", encoding="utf-8") as fh:
        fh.write("tampered\n")
    with pytest.raises(KBError) as exc:
        load(data, sources)
    assert any("sha256 of gugong.pl.txt" in str(i) for i in exc.value.issues)


def test_a_named_condition_unknown_to_game_yaml_is_an_error_naming_the_closest(data):
    """Effects name the conditions, counts and places their game.yaml declares (kb/effects.py TERM_ARGS):
    a misspelt name is refused with the file, the entity and the nearest declared name."""
    edit(data / "gugong/location.yaml", "- gain: {jade: 1}",
         "- condition: {if: {hold-servant: {servants: 2}}, do: [{gain: {jade: 1}}]}")
    errs = errors_of(data)
    assert any("gugong/location.yaml" in e and "gugong/location/jade" in e
               and "'hold-servant' is not one of the conditions of gugong (game.yaml); did you mean 'holds-servants'?" in e
               for e in errs), errs


def test_a_named_conditions_parameters_are_checked_against_game_yaml(data):
    edit(data / "gugong/location.yaml", "- gain: {jade: 1}",
         "- condition: {if: {holds-servants: {servant: 2}}, do: [{gain: {jade: 1}}]}")
    errs = errors_of(data)
    assert any("holds-servants: 'servant' is not a param of it; did you mean 'servants'?" in e for e in errs), errs
    assert any("holds-servants: param 'servants' is missing" in e for e in errs), errs


def test_free_text_where_a_name_belongs_is_an_error(data):
    edit(data / "gugong/location.yaml", "- gain: {jade: 1}",
         '- condition: {if: "you hold 2 servants", do: [{gain: {jade: 1}}]}')
    assert any("'you hold 2 servants' is not one of the conditions of gugong" in e for e in errors_of(data))


def test_an_apply_naming_no_entity_or_one_without_an_effect_is_an_error(data):
    """`apply` stands for another entity's effect: it must name an entity that states one."""
    edit(data / "gugong/location.yaml", "- gain: {jade: 1}", "- apply: {id: gugong/term/emperor}")
    assert any("effect[1].apply: 'gugong/term/emperor' is not an existing id" in e for e in errors_of(data))
    edit(data / "gugong/location.yaml", "- apply: {id: gugong/term/emperor}", "- apply: {id: gugong/term/servant}")
    assert any("effect[1].apply: 'gugong/term/servant' has no effect to apply" in e for e in errors_of(data))


def test_an_apply_that_comes_back_to_its_entity_is_an_error(data):
    """An entity that applies itself, or applies one that applies it back, states no steps of its own."""
    edit(data / "gugong/location.yaml", "- gain: {jade: 1}", "- apply: {id: gugong/location/jade}")
    assert any("[gugong/location/jade]: effect: apply comes back to this entity (gugong/location/jade → "
               "gugong/location/jade)" in e for e in errors_of(data))
    edit(data / "gugong/location.yaml", "- apply: {id: gugong/location/jade}", "- apply: {id: gugong/term/servant}")
    edit(data / "gugong/term.yaml", "- key: servant\n", "- key: servant\n  effect: [{apply: {id: gugong/location/jade}}]\n")
    errs = [e for e in errors_of(data) if "apply comes back" in e]
    assert len(errs) == 1 and ("gugong/location/jade → gugong/term/servant → gugong/location/jade" in errs[0]
                               or "gugong/term/servant → gugong/location/jade → gugong/term/servant" in errs[0]), errs
