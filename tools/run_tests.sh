#!/usr/bin/env bash
# `make test` without PYTEST_ARGS: the browser tests (tests/browser, mostly waiting on the browser)
# and all other tests in two pytest processes at once, so a 2-core machine is kept busy; the
# browser tests' output follows the others'. Exits non-zero if either run failed.
# Usage: tools/run_tests.sh PYTHON
set -u
PY="$1"
mkdir -p test-artifacts
LOG=test-artifacts/browser-tests.log
"$PY" -m pytest -p no:cacheprovider tests/browser >"$LOG" 2>&1 &
browser=$!
"$PY" -m pytest --ignore=tests/browser
rest=$?
wait "$browser"
rb=$?
echo
echo "=== the browser tests (run at the same time; also in $LOG) ==="
cat "$LOG"
if [ "$rest" -ne 0 ] || [ "$rb" -ne 0 ]; then
    echo "make test: FAILED (other tests exit $rest, browser tests exit $rb)"
    exit 1
fi
