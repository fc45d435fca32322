"""The rulekb knowledge base: curated YAML in kb/data, validated and loaded into a database."""
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
DATA_DIR = PACKAGE_DIR / "data"
SOURCES_DIR = PACKAGE_DIR / "sources"
