#!/usr/bin/env bash
# `make test` without PYTEST_ARGS: two pytest processes at once, so a 2-core machine is kept busy.
# - The first runs the browser tests (tests/browser, mostly waiting on the browser), and after
#   them the test files that use the compiled co-op game most (SECOND below). Such a session
#   compiles the numba kernels in a background process while its browser tests run
#   (tests/conftest.py), so the compiling is not waited for; it takes about two minutes.
# - The second runs every other test.
# The first's output follows the second's. Exits non-zero if either run failed.
# Both list their 15 slowest tests (--durations), to keep each run's 10 minutes in view.
# Usage: tools/run_tests.sh PYTHON
set -u
PY="$1"
SECOND="tests/test_advice.py tests/test_analytics.py tests/test_app_advisor.py tests/test_app_dashboard.py
        tests/test_bots.py tests/test_cli.py tests/test_coop_kernel.py"
mkdir -p test-artifacts
LOG=test-artifacts/browser-tests.log
# shellcheck disable=SC2086 # the file lists are word lists on purpose
"$PY" -m pytest -p no:cacheprovider --durations=15 tests/browser $SECOND >"$LOG" 2>&1 &
browser=$!
ignore=(--ignore=tests/browser)
for f in $SECOND; do
    ignore+=("--ignore=$f")
done
"$PY" -m pytest --durations=15 "${ignore[@]}"
rest=$?
wait "$browser"
rb=$?
echo
echo "=== the browser tests and the compiled game's heaviest users (run at the same time; also in $LOG) ==="
cat "$LOG"
if [ "$rest" -ne 0 ] || [ "$rb" -ne 0 ]; then
    echo "make test: FAILED (other tests exit $rest, browser tests and the second group exit $rb)"
    exit 1
fi
