VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=
# make run SERVE_ARGS="--host 0.0.0.0": other devices on the network may join
SERVE_ARGS ?=

.PHONY: run test bench measure-table clean

$(STAMP): pyproject.toml
	@if command -v python3.11 >/dev/null 2>&1; then \
		python3.11 -m venv $(VENV); \
	else \
		python3 -m venv $(VENV); \
	fi
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/nochmal serve $(SERVE_ARGS)

test: $(STAMP)
	$(PY) -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(VENV)/bin/nochmal bench --json

# a whole co-op game by a host screen and three phones in a real browser (about 7 minutes):
# taps, phone-to-host times and screenshots in test-artifacts/ (CI runs it after the tests)
measure-table: $(STAMP)
	$(PY) -m pytest -m bench -p no:cacheprovider tests/browser/test_browser_table.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
