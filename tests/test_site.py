"""The docs site builds (strictly: a broken link fails) from a knowledge base database."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_site(tmp_path, db_url, env=None):
    """Build with a copy of the config into a temporary folder, so the test never touches build/site."""
    config = tmp_path / "mkdocs.yml"
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("docs_dir: site/docs", f"docs_dir: {ROOT / 'site' / 'docs'}")
    text = text.replace("site_dir: build/site", f"site_dir: {tmp_path / 'out'}")
    text = text.replace("  - site/hooks.py", f"  - {ROOT / 'site' / 'hooks.py'}")
    text = text.replace("custom_dir: site/overrides", f"custom_dir: {ROOT / 'site' / 'overrides'}")
    config.write_text(text, encoding="utf-8")
    env = dict(os.environ, RULEKB_DATABASE_URL=db_url, NO_MKDOCS_2_WARNING="1", **(env or {}))
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config)],
                          env=env, capture_output=True, text=True)


def test_site_builds_strict_with_a_page_per_game(tmp_path, fixture_db):
    done = build_site(tmp_path, fixture_db)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    for lang in ("en", "pl", "cs"):
        page = (out / lang / "gugong" / "index.html").read_text(encoding="utf-8")
        assert "Gugong" in page and "glossary/" in page
    glossary = (out / "pl" / "gugong" / "glossary" / "index.html").read_text(encoding="utf-8")
    assert 'id="servant"' in glossary and "Służący" in glossary and "služebník" in glossary
    location = (out / "pl" / "gugong" / "location" / "index.html").read_text(encoding="utf-8")
    assert "sources/gugong-pl/#L675" in location  # a rulebook text links to its source line
    assert (out / "sources" / "gugong-pl" / "index.html").read_text(encoding="utf-8").count('<div id="L') > 1800


def test_the_build_fails_on_a_missing_interface_translation(tmp_path, fixture_db, monkeypatch):
    import i18n.catalog as catalog

    po = catalog.po_path("cs").read_text(encoding="utf-8")
    broken = tmp_path / "locale"
    import shutil
    shutil.copytree(catalog.LOCALE_DIR, broken)
    path = broken / "cs" / "LC_MESSAGES" / "rulekb.po"
    path.write_text(po.replace('msgstr "Hledat"', 'msgstr ""'), encoding="utf-8")
    env = {"RULEKB_LOCALE_DIR": str(broken)}
    done = build_site(tmp_path, fixture_db, env)
    assert done.returncode != 0 and "without translation" in done.stderr


def test_findings_pages_quote_both_editions(tmp_path, real_db):
    done = build_site(tmp_path, real_db)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "out" / "en" / "dragon" / "findings" / "index.html").read_text(encoding="utf-8")
    assert "large_price: 6 in 2007, 7 in 2017" in page
    assert "dragon-2007-pl" in page and "dragon-2017-pl" in page
    assert (tmp_path / "out" / "pl" / "gugong" / "findings" / "index.html").is_file()
