# make test PYTHON_VERSION=3.13: the same with Python 3.13, in its own .venv-3.13
# (tools/find_python.sh finds the interpreter); unset: Python 3.11 if present, else python3
PYTHON_VERSION ?=
ifeq ($(strip $(PYTHON_VERSION)),)
VENV := .venv
else
VENV := .venv-$(PYTHON_VERSION)
endif
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# the tests that hold the compiled bots to the Python engine and bots (CI runs them on every
# Python we support besides the default: make parity PYTHON_VERSION=3.12)
PARITY_TESTS ?= tests/test_coop_kernel.py tests/test_kernel_parity.py
PYTEST_ARGS ?=
# make run SERVE_ARGS="--host 0.0.0.0": other devices on the network may join
SERVE_ARGS ?=

.PHONY: run test parity bench solo-values measure-table measure-capacity measure-scan i18n-extract i18n-update i18n-compile clean

$(STAMP): pyproject.toml
	@if [ -n "$(strip $(PYTHON_VERSION))" ]; then \
		interp="$$(bash tools/find_python.sh $(PYTHON_VERSION))" || exit 1; \
		"$$interp" -m venv $(VENV); \
	elif command -v python3.11 >/dev/null 2>&1; then \
		python3.11 -m venv $(VENV); \
	else \
		python3 -m venv $(VENV); \
	fi
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/nochmal serve $(SERVE_ARGS)

# every test: the browser tests (and the compiled game's heaviest users) beside the others
# (tools/run_tests.sh); with PYTEST_ARGS one pytest run
test: $(STAMP)
ifeq ($(strip $(PYTEST_ARGS)),)
	bash tools/run_tests.sh $(PY)
else
	$(PY) -m pytest $(PYTEST_ARGS)
endif

parity: $(STAMP)
	$(PY) -m pytest -p no:cacheprovider $(PARITY_TESTS)

bench: $(STAMP)
	$(VENV)/bin/nochmal bench --json

# the solo planner's rollout tables for every shipped sheet (boards/solo-values/, about 2 minutes a
# sheet): after a change to a sheet, the table policy or the solo rules
solo-values: $(STAMP)
	$(VENV)/bin/nochmal fit-solo-values

# a whole co-op game by a host screen and three phones in a real browser (about 7 minutes), and
# five rounds of twenty one with physical dice (about 2 minutes; NOCHMAL_T21_ROUNDS=0: the whole
# game): taps, phone-to-host times and screenshots in test-artifacts/ (CI runs it after the tests)
measure-table: $(STAMP)
	$(PY) -m pytest -m bench -p no:cacheprovider tests/browser/test_browser_table.py tests/browser/test_browser_six_phones.py \
		tests/browser/test_browser_twentyone_measure.py

# how many co-op tables of 7 devices (a host screen, six phones in chromium) one `nochmal serve`
# process holds, idle and while playing: 1, 2, 4, 8 tables until a limit (the server over 80 % of a
# core, or p90 confirm -> host over 5 s); a table and test-artifacts/capacity-measure.json (about
# 10 minutes; CAPACITY_ARGS="--tables 1,2,4,8,16 --play-s 90": see tools/measure_capacity.py --help)
CAPACITY_ARGS ?=
measure-capacity: $(STAMP)
	$(PY) tools/measure_capacity.py $(CAPACITY_ARGS)

measure-scan: $(STAMP)
	$(PY) -m pytest -m bench -p no:cacheprovider tests/browser/test_browser_scan.py

# the German and English texts (nochmal/i18n.py): collect the marked texts, merge them into the
# German catalog (new ones come untranslated: the catalog test fails until they are), compile
POT := nochmal/data/locale/nochmal.pot
i18n-extract: $(STAMP)
	$(VENV)/bin/pybabel extract -F babel.cfg --no-wrap --sort-by-file --project nochmal \
		-k _ -k N_ -k ngettext:1,2 -k pgettext:1c,2 -o $(POT) nochmal

i18n-update: i18n-extract
	$(VENV)/bin/pybabel update -i $(POT) -d nochmal/data/locale -D nochmal -l de --no-wrap --ignore-obsolete --no-fuzzy-matching

i18n-compile: $(STAMP)
	$(VENV)/bin/pybabel compile -d nochmal/data/locale -D nochmal --statistics

clean:
	rm -rf .venv .venv-3.* .pytest_cache .hypothesis build dist *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
