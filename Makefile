# The two commands of the README: `make serve` and `make test`. Everything else is a step of those.
# Both install exactly the versions in requirements.lock (with hashes), the versions the suite passed with.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml requirements.lock | cksum | cut -d' ' -f1)
UV_VERSION := 0.13.9

.PHONY: serve test test-latest lock build site bench install clean system-packages

# What a build reads: when none of it changed since the last build, `make serve` starts at once.
BUILD_INPUTS := $(shell find kb engine i18n cli -type f \( -name '*.py' -o -name '*.yaml' -o -name '*.yml' \
                  -o -name '*.po' -o -name '*.txt' -o -name '*.json' \) -not -path '*/__pycache__/*')
SITE_INPUTS  := $(shell find site -type f -not -path '*/__pycache__/*') mkdocs.yml
DATABASE := var/rulekb.db
SITE_STAMP := build/site/.built

serve: $(SITE_STAMP)
	$(BIN)/rulekb serve --host 127.0.0.1 --port 8000

test: install system-packages
	$(BIN)/pytest -q

build: $(DATABASE)
site: $(SITE_STAMP)

$(DATABASE): $(STAMP) $(BUILD_INPUTS)
	$(BIN)/rulekb build
	touch $@

$(SITE_STAMP): $(DATABASE) $(SITE_INPUTS)
	$(BIN)/rulekb site build
	touch $@

bench: install
	$(BIN)/python -m tests.bench_engines
	$(BIN)/python -m tests.bench_api
	$(BIN)/python -m tests.bench_search
	$(BIN)/python -m tests.bench_ruleset
	$(BIN)/python -m tests.bench_export
	$(BIN)/python -m tests.effect_coverage
	$(BIN)/python -m tests.bench_site
	$(BIN)/python -m tests.bench_checker

install: $(STAMP)

$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes --no-deps -r requirements.lock
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	rm -f $(VENV)/.installed-* && touch $@

# Upgrade the lock on purpose: the newest versions pyproject.toml allows, pinned with hashes.
lock:
	test -x .tools/bin/uv || ($(PYTHON) -m venv .tools && .tools/bin/pip install --quiet uv==$(UV_VERSION))
	.tools/bin/uv pip compile pyproject.toml requirements-build.in --extra dev --generate-hashes --upgrade --python-version 3.11 \
	  --python-platform x86_64-manylinux_2_28 --quiet -o requirements.lock

# The suite against the newest versions pyproject.toml allows, in a scratch environment: an upstream
# release that breaks rulekb shows here before a user meets it. Run it before `make lock` and weekly.
test-latest: system-packages
	rm -rf .venv-latest && $(PYTHON) -m venv .venv-latest
	.venv-latest/bin/pip install --quiet --upgrade pip
	.venv-latest/bin/pip install --quiet --upgrade -e ".[dev]"
	.venv-latest/bin/pip freeze --exclude-editable > .venv-latest/versions.txt
	PATH="$$PWD/.venv-latest/bin:$$PATH" .venv-latest/bin/pytest -q -p no:cacheprovider

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
	rm -rf $(VENV) .venv-latest .tools build var .pytest_cache
