# Everything a fresh Debian machine needs, from nothing:
#   make serve   install and serve on 127.0.0.1:8000 at once, while the pinned sources are fetched and
#                every lexicon not yet built is built (each game answers as soon as it is published)
#   make test    install everything every test needs and run the test suite
#   make docs    build the documentation in docs/ (docs/_build/html)
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# built shortest first, whatever the order here (build/plan.py)
GAMES ?= osps remik kvizovka krizemkrazem
export LEXICON_HOME ?= $(CURDIR)/data
STAMP := $(VENV)/.installed

.PHONY: install system-deps browser-deps test-deps fetch build rebuild serve test docs docs-full lint bench soak fleet-drill clean-data

# Debian tools the build runs (lt-print, and lt-comp in tests, from lttoolbox-dev), the archive
# keyring the private apt configuration verifies the suites with (debian-archive-keyring; see
# sources/apt.py: sources are fetched through it, never through the machine's apt lists), and
# dpkg-scanpackages (dpkg-dev), with which the tests index their local package repository,
# and mdb_stat/mdb_dump (lmdb-utils), with which the tests read a release's records.lmdb the
# way an engine in another language would (docs/releases.md, "Release store").
system-deps:
	@if ! command -v lt-print >/dev/null || ! command -v dpkg-scanpackages >/dev/null \
	    || ! command -v mdb_dump >/dev/null \
	    || [ ! -f /usr/share/keyrings/debian-archive-keyring.gpg ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lttoolbox lttoolbox-dev \
	    debian-archive-keyring dpkg-dev lmdb-utils >/dev/null; \
	fi

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: system-deps $(STAMP)

fetch: install
	$(BIN)/lexicon fetch

# Builds only the games that have no release yet; `make rebuild` builds them all again.
build: install
	$(BIN)/lexicon build --if-missing $(GAMES)

rebuild: install
	$(BIN)/lexicon build $(GAMES)

# The server answers from the start: each game as soon as it is published, 503 not_ready
# ("being built") until then; the build runs beside it (`lexicon serve --build`).
serve: install
	$(BIN)/lexicon serve --host 127.0.0.1 --port 8000 $(addprefix --build ,$(GAMES))

# The referee page is tested in a real headless Chromium driven through chromedriver
# (tests/page/test_referee_page.py).
browser-deps:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	fi

# Everything a test needs beyond `make install`, so a fresh machine skips nothing: the browser,
# and Debian's nginx, whose configuration the fleet's test checks with `nginx -t`
# (tests/service/test_ops.py; Debian may start the nginx service on install where services run).
test-deps: browser-deps
	@if ! command -v nginx >/dev/null; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; \
	fi

# One worker per core, each taking whole test files (module-scoped fixtures built once); -ra
# (in addopts) names every skipped test and why, --durations the slowest tests; test_docs builds
# docs/ strictly as part of the run.
test: install test-deps
	$(BIN)/python -m pytest -q -n auto --dist loadfile --durations=15

# The documentation site, built strictly (a warning fails), after the generated parts are
# checked: docs/_build/html/index.html.
docs: install
	$(BIN)/python -m tools.docs --check --site docs/_build/html

# The docs' examples that need built releases (`<!-- example: full-data-NAME -->`,
# tools/doc_examples.py), run as written against a hard-linked copy of LEXICON_HOME's releases
# (the home is never written). Prints a JSON report; exits 1 when an example fails.
docs-full: build
	$(BIN)/python -m tools.doc_examples --home $(LEXICON_HOME) --strict

# Figures, not timed tests: one JSON object per figure, each beside its reference
# (plain Python set, bare Starlette, gzip of the word list). Needs built releases. Each tool
# also writes the docs' table it measures to docs/figures/NAME.json (FIGURES), which
# `python -m tools.docs` renders into the pages with where it comes from.
BENCH_ARGS ?= --games osps kvizovka
FIGURES ?= docs/figures
bench: build
	@command -v wrk >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null)
	$(BIN)/python -m tools.bench $(BENCH_ARGS) --figures $(FIGURES)
	$(BIN)/python -m tools.publish_load --figures $(FIGURES)
	$(BIN)/python -m tools.pattern_flood --home $(LEXICON_HOME) --costs --figures $(FIGURES)
	$(BIN)/python -m tools.pattern_flood --home $(LEXICON_HOME) --ignore-retry-after --figures $(FIGURES)
	$(BIN)/python -m tools.remik_flood --home $(LEXICON_HOME) --costs --figures $(FIGURES)
	$(BIN)/python -m tools.label_flood --home $(LEXICON_HOME)
	$(BIN)/python -m tools.batch_memory --home $(LEXICON_HOME) --figures $(FIGURES)
	$(BIN)/python -m tools.fuzz --examples 100 --figures $(FIGURES)
	$(BIN)/python -m tools.offline_bench --home $(LEXICON_HOME) --figures $(FIGURES)
	$(BIN)/python -m tools.export_sizes --home $(LEXICON_HOME) --figures $(FIGURES)
	$(BIN)/python -m tools.capacity --home $(LEXICON_HOME) --figures $(FIGURES)
	$(BIN)/python -m tools.doc_examples --home $(LEXICON_HOME) --strict
	$(BIN)/python -m tools.soak --home $(LEXICON_HOME) --minutes $(SOAK_MINUTES) --figures $(FIGURES)
	$(BIN)/python -m tools.docs

# A worker's own memory over a long run of mixed traffic on `serve --workers 2` (the last
# step of `make bench`; `make soak SOAK_MINUTES=3` for a short one): each worker's RssAnon
# at the start, its peak, its end and its slope over the last 10 minutes (tools/soak.py).
SOAK_MINUTES ?= 30
soak: build
	$(BIN)/python -m tools.soak --home $(LEXICON_HOME) --minutes $(SOAK_MINUTES) --figures $(FIGURES)
	$(BIN)/python -m tools.docs

# Three replicas behind Debian's nginx on 127.0.0.1, wrk load through it, a rolling upgrade
# to a second bundle, a rollback and the readiness gate (deploy/fleet_drill.py: small
# SYNTHETIC releases, one to three minutes; not part of `make test`). Prints the figures;
# exits 1 when a target is missed.
fleet-drill: install
	@if ! command -v nginx >/dev/null || ! command -v wrk >/dev/null; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx wrk >/dev/null; \
	fi
	$(BIN)/python deploy/fleet_drill.py drill

lint: install
	$(BIN)/ruff check .

clean-data:
	rm -rf data
