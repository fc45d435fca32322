"""The docs site builds (strictly: a broken link fails) from a knowledge base database."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_site(tmp_path, db_url):
    """Build with a copy of the config into a temporary folder, so the test never touches build/site."""
    config = tmp_path / "mkdocs.yml"
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("docs_dir: site/docs", f"docs_dir: {ROOT / 'site' / 'docs'}")
    text = text.replace("site_dir: build/site", f"site_dir: {tmp_path / 'out'}")
    text = text.replace("  - site/hooks.py", f"  - {ROOT / 'site' / 'hooks.py'}")
    config.write_text(text, encoding="utf-8")
    env = dict(os.environ, RULEKB_DATABASE_URL=db_url, NO_MKDOCS_2_WARNING="1")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config)],
                          env=env, capture_output=True, text=True)


def test_site_builds_strict_with_a_page_per_game(tmp_path, fixture_db):
    done = build_site(tmp_path, fixture_db)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "out" / "gugong" / "index.html").read_text(encoding="utf-8")
    assert "gugong/term/servant" in page and "Gugong" in page
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "gugong/" in index


def test_findings_pages_quote_both_editions(tmp_path, real_db):
    done = build_site(tmp_path, real_db)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "out" / "dragon" / "findings" / "index.html").read_text(encoding="utf-8")
    assert "large_price: 6 in 2007, 7 in 2017" in page
    assert "dragon-2007-pl" in page and "dragon-2017-pl" in page
    assert (tmp_path / "out" / "gugong" / "findings" / "index.html").is_file()
