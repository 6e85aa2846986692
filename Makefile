# Every target creates .venv and installs the project (with the dev extra) when
# the venv is missing or pyproject.toml changed since the last install.

PY ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The scripts (those run as __main__; not the modules they import, as bench/load_players.py),
# but the two that read what other benches wrote (bench/value_data.py, bench/ai.py --save).
BENCH_SCRIPTS := $(filter-out bench/value_fit.py bench/value_paired.py,$(shell grep -l "^if __name__ == .__main__.:" bench/*.py))
ARGS ?=
# make backup DEST=file (or a directory); empty: data/backups/<name>-<UTC time>.sqlite3
DEST ?=
# make copy-to-postgres TO=postgresql://user:password@host/db [FROM=file.sqlite3] [REPLACE=1]
# (REPLACE: 1 or unset; any other value, REPLACE=0 included, is refused rather than read as 1.)
# FROM empty: the bot's own file (UMTALI_DB_PATH from the environment or .env).
FROM ?=
TO ?=
REPLACE ?=
# The variable named $(1) as one shell word, exactly as given: neither make (a password
# ab$cd read as ab, $c and d) nor the shell ($, `, ") reads into it.
shell_word = '$(subst ','\'',$(value $(1)))'

.PHONY: run test play bench engine backup copy-to-postgres postgres lint clean messages proxy

# A venv without pip is made again: on Debian and Ubuntu without python3-venv, `python3 -m venv`
# stops half-way, leaving .venv/bin/python and no pip, and every later make would fail on it
# even once the package is installed.
$(STAMP): pyproject.toml
	@$(VPY) -m pip --version >/dev/null 2>&1 || $(PY) -m venv $(VENV) || { echo "make: $(PY) \
	-m venv made no $(VENV) with pip. On Debian or Ubuntu: sudo apt install python3-venv \
	python3-dev gcc, then make again." >&2; exit 1; }
	$(VPY) -m pip install -q -e ".[dev]"
	touch $(STAMP)

# The engine's hot modules compiled with mypyc beside their sources (compile_engine.py), again
# whenever an engine source changed (the script does nothing while the hashes of the sources
# compiled match); what runs is checked at import (umtali/compiled.py). Should the compiler be
# missing, the game still runs and plays from the sources (slower), but make test fails: CI
# tests the compiled engine.
ENGINE := umtali/compiled.txt

$(ENGINE): $(STAMP) compile_engine.py $(wildcard umtali/*.py umtali/ai/*.py)
	$(VPY) compile_engine.py $(if $(filter test engine,$(MAKECMDGOALS)),,--or-interpreted)

engine: $(ENGINE)

run: $(ENGINE)
	$(VPY) bot.py

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# The tests start a throwaway PostgreSQL server: its programs installed first if missing.
# They run in two workers per core, at most 8 (pytest-xdist); each worker starts its own
# server. Many tests wait (on a timeout, a restart, a subprocess) more than they compute:
# on 2 cores, 4 workers ran the suite in 7-8.5 minutes where 2 took 10-11.
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); n=$$((2 * n)); [ $$n -gt 8 ] && n=8; echo $$n)
test: lint postgres $(ENGINE)
	$(VENV)/bin/pytest -n $(TEST_WORKERS)

postgres:
	@bash .ci/postgres

play: $(ENGINE)
	$(VPY) -m umtali play $(ARGS)

backup: $(STAMP)
	$(VPY) -m data.backup $(if $(value DEST),$(call shell_word,DEST))

# The command is not echoed: TO holds the database's password.
copy-to-postgres: $(STAMP)
	$(if $(value TO),,$(error give the PostgreSQL database: make copy-to-postgres TO=postgresql://...))
	$(if $(filter-out 1,$(REPLACE)),$(error REPLACE=1 empties the PostgreSQL database first; without REPLACE, a database that holds rows is refused and nothing is copied. Give REPLACE=1 or leave it out, not REPLACE=$(REPLACE)))
	@$(VPY) -m data.copy_to_postgres $(if $(value FROM),$(call shell_word,FROM)) $(call shell_word,TO) $(if $(REPLACE),--replace)

# The REST proxy that every process of the bot shares, so that together they keep Discord's
# rate limits (docs/scale.md). Needs node 18.17+ and npm; installs the pinned versions of
# proxy/package-lock.json into proxy/node_modules. Then run the bot with
# UMTALI_DISCORD_API=http://127.0.0.1:8080/api/v10 (PORT, HOST: where the proxy listens).
PROXY_STAMP := proxy/node_modules/.installed

$(PROXY_STAMP): proxy/package.json proxy/package-lock.json
	cd proxy && npm ci --no-audit --no-fund
	touch $(PROXY_STAMP)

proxy: $(PROXY_STAMP)
	node proxy/server.mjs

# The catalogues (umtali/locales/*.po) in step with the code: new messages added to be
# translated, gone ones dropped. tests/test_translations.py says what is missing.
messages: $(STAMP)
	$(VPY) -c "from pathlib import Path; from umtali.catalogue import update; \
	from cogs.umtali.translator import command_messages; update(Path('.'), command_messages())"

bench: $(ENGINE)
	@set -e; for script in $(BENCH_SCRIPTS); do \
		echo "== $$script"; \
		$(VPY) $$script; \
	done

clean:
	$(PY) compile_engine.py --clean
	rm -rf $(VENV) build *.egg-info .mypy_cache .ruff_cache .pytest_cache .hypothesis
	find . -path ./.git -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
