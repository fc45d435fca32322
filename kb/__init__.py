"""The rulekb knowledge base: curated YAML in kb/data, validated and loaded into a database."""
import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
# RULEKB_DATA_DIR: another copy of kb/data for `rulekb check` and `rulekb build` (a change tried out apart)
DATA_DIR = Path(os.environ.get("RULEKB_DATA_DIR") or PACKAGE_DIR / "data").resolve()
SOURCES_DIR = PACKAGE_DIR / "sources"
