"""The docs site builds (strictly: a broken link fails) from a knowledge base database."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_site_builds_strict_with_a_page_per_game(tmp_path, fixture_db):
    # build a copy of the config into a temporary site dir, so the test never touches build/site
    config = tmp_path / "mkdocs.yml"
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("docs_dir: site/docs", f"docs_dir: {ROOT / 'site' / 'docs'}")
    text = text.replace("site_dir: build/site", f"site_dir: {tmp_path / 'out'}")
    text = text.replace("  - site/hooks.py", f"  - {ROOT / 'site' / 'hooks.py'}")
    config.write_text(text, encoding="utf-8")
    env = dict(os.environ, RULEKB_DATABASE_URL=fixture_db, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config)],
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "out" / "gugong" / "index.html").read_text(encoding="utf-8")
    assert "gugong/term/servant" in page and "Gugong" in page
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "gugong/" in index
