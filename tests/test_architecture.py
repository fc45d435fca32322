"""The packages depend one way (ARCHITECTURE.md, "Dependencies"): kb <- engine <- i18n <- api, site <- cli.

Read from the source with the standard library's ast, every import counted, also those inside
functions (a lazy import is still a dependency). site/hooks.py is a module named like the standard
library's `site`, which import graph tools resolve to the wrong module; ast reads the file itself."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYER = {"kb": 0, "engine": 1, "i18n": 2, "api": 3, "site": 3, "cli": 4}


def imports_between_packages(root: Path = ROOT) -> list[tuple[str, str, str]]:
    """(importing package, imported package, "file:line module") for every import across packages."""
    out = []
    for pkg in LAYER:
        for path in sorted((root / pkg).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    top = name.split(".")[0]
                    if top in LAYER and top != pkg:
                        out.append((pkg, top, f"{path.relative_to(root)}:{node.lineno} {name}"))
    return out


def test_packages_import_only_packages_below_them():
    upward = [f"{a} -> {b}: {where}" for a, b, where in imports_between_packages() if LAYER[b] >= LAYER[a]]
    assert not upward, "imports against the dependency direction:\n" + "\n".join(upward)


def test_there_is_no_import_cycle_between_packages():
    edges = {(a, b) for a, b, _ in imports_between_packages()}
    cycles = sorted(f"{a} <-> {b}" for a, b in edges if (b, a) in edges and a < b)
    assert not cycles


def test_the_direction_check_sees_a_lazy_upward_import(tmp_path):
    """The check itself can fail: an import inside a function of kb that reaches up is reported."""
    for pkg in LAYER:
        (tmp_path / pkg).mkdir()
    (tmp_path / "kb" / "x.py").write_text("def f():\n    from i18n.catalog import t\n")
    assert [(a, b) for a, b, _ in imports_between_packages(tmp_path)] == [("kb", "i18n")]
