# The two commands of the README: `make serve` and `make test`. Everything else is a step of those.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: serve test build site bench install clean system-packages

serve: build site
	$(BIN)/rulekb serve --host 127.0.0.1 --port 8000

test: install system-packages
	$(BIN)/pytest -q

build: install
	$(BIN)/rulekb build

site: build
	$(BIN)/rulekb site build

bench: install
	$(BIN)/python -m tests.bench_engines
	$(BIN)/python -m tests.bench_api
	$(BIN)/python -m tests.bench_search
	$(BIN)/python -m tests.bench_ruleset
	$(BIN)/python -m tests.bench_export
	$(BIN)/python -m tests.bench_site

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	rm -f $(VENV)/.installed-* && touch $@

# Debian packages the tests use: hunspell with the Polish and Czech dictionaries (spelling) and
# Chromium (the browser test). Installed when run as root; otherwise the tests that need them skip
# and say why.
SYSTEM_PACKAGES := hunspell hunspell-pl hunspell-cs chromium
system-packages:
	@if ! command -v hunspell >/dev/null || [ ! -f /usr/share/hunspell/pl_PL.dic ] || [ ! -f /usr/share/hunspell/cs_CZ.dic ] \
	    || ! command -v chromium >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then (apt-get update -qq && apt-get install -y -qq $(SYSTEM_PACKAGES)) >/dev/null 2>&1 \
	    || echo "could not install $(SYSTEM_PACKAGES): the tests that need them will be skipped"; \
	  else echo "$(SYSTEM_PACKAGES) missing (not root): the tests that need them will be skipped"; fi; \
	fi

clean:
	rm -rf $(VENV) build var .pytest_cache
