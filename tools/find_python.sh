#!/usr/bin/env bash
# Print the path of a working Python X.Y interpreter, for `make ... PYTHON_VERSION=X.Y`.
# Looks, in this order, at pythonX.Y on PATH (a pyenv shim counts only if it runs), at pyenv's
# builds ($(pyenv root)/versions/X.Y.*) and at /usr/bin and /usr/local/bin.
# Usage: tools/find_python.sh 3.13   (exit 1 with a message when there is none)
set -u
v="${1:?usage: tools/find_python.sh X.Y}"
case "$v" in
    [0-9].[0-9]|[0-9].[0-9][0-9]) ;;
    *) echo "find_python.sh: '$v' is not a version like 3.13" >&2; exit 2 ;;
esac
candidates=()
if command -v "python$v" >/dev/null 2>&1; then
    candidates+=("$(command -v "python$v")")
fi
if command -v pyenv >/dev/null 2>&1; then
    root="$(pyenv root)"
    for d in "$root"/versions/"$v".*; do
        [ -x "$d/bin/python$v" ] && candidates+=("$d/bin/python$v")
    done
fi
candidates+=("/usr/local/bin/python$v" "/usr/bin/python$v")
for c in "${candidates[@]}"; do
    if [ -x "$c" ] && "$c" -c "import sys; assert sys.version_info[:2] == tuple(map(int, '$v'.split('.')))" >/dev/null 2>&1; then
        echo "$c"
        exit 0
    fi
done
echo "find_python.sh: no Python $v found (looked at python$v on PATH, pyenv's versions, /usr/local/bin, /usr/bin)" >&2
exit 1
