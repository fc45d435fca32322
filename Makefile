# The two commands of the README: `make serve` and `make test`. Everything else is a step of those.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: serve test build site bench install clean dictionaries

serve: build site
	$(BIN)/rulekb serve --host 127.0.0.1 --port 8000

test: install dictionaries
	$(BIN)/pytest -q

build: install
	$(BIN)/rulekb build

site: build
	$(BIN)/rulekb site build

bench: install
	$(BIN)/python -m tests.bench_api

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	rm -f $(VENV)/.installed-* && touch $@

# Polish and Czech hunspell dictionaries for the spelling tests (Debian packages). Needs root or
# sudo; without them the spelling tests are skipped with a message saying so.
dictionaries:
	@if ! command -v hunspell >/dev/null || [ ! -f /usr/share/hunspell/pl_PL.dic ] || [ ! -f /usr/share/hunspell/cs_CZ.dic ]; then \
	  if [ "$$(id -u)" = 0 ]; then (apt-get update -qq && apt-get install -y -qq hunspell hunspell-pl hunspell-cs) >/dev/null 2>&1 \
	    || echo "could not install hunspell, hunspell-pl, hunspell-cs: spelling tests will be skipped"; \
	  else echo "hunspell, hunspell-pl, hunspell-cs missing (not root): spelling tests will be skipped"; fi; \
	fi

clean:
	rm -rf $(VENV) build var .pytest_cache
