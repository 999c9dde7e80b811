#!/usr/bin/env bash
# twos-tui beside the newest releases it allows (issue 32), installed from PyPI as a
# person would, with no constraints file:
#   1. a throwaway venv with twos-tui (test and web extras), the newest Textual 8.x and
#      the newest textual-serve 1.x: `pip check`, then the quick loop without the
#      snapshot tests (they compare Textual's exact rendering, pinned in constraints.txt):
#      pytest -m "not slow" -k "not snapshot", hypothesis on its quick profile
#   2. a throwaway venv with twos-tui next to another published Textual app (trogon:
#      Textualize's TUI for click programs, textual>=0.61): `pip check` clean, both import
# Each step says what it runs. Exit status 1 if any check fails. The venvs are removed.
# Usage: tools/newest_textual.sh [PYTHON]   (default: python3). .ci/run runs it.
set -euo pipefail
cd "$(dirname "$0")/.."

py="${1:-python3}"
other_app="trogon>=0.6,<1"
work="$(mktemp -d "${TMPDIR:-/tmp}/twos-newest.XXXXXX")"
# (`pip install .` builds in ./build: removed after unless it was there before)
if [ -e build ]; then keep_build=1; else keep_build=""; fi
cleanup() {
    rm -rf "$work"
    [ -n "$keep_build" ] || rm -rf build
}
trap cleanup EXIT
trap 'echo "newest_textual: FAILED: the step above exited $?"' ERR
say() { echo "newest_textual: $*"; }
versions() {
    "$1/bin/python" - "${@:2}" <<'EOF'
import sys
from importlib.metadata import version

print("newest_textual: installed " + ", ".join(f"{n} {version(n)}" for n in sys.argv[1:]))
EOF
}
started=$SECONDS

say "1/2: twos-tui with the newest Textual 8.x and textual-serve 1.x (no constraints)"
"$py" -m venv "$work/newest"
say "pip install -e '.[test,web]' 'textual>=8.2.8,<9' 'textual-serve>=1.1.3,<2'"
"$work/newest/bin/pip" install -q --disable-pip-version-check --upgrade \
    -e '.[test,web]' 'textual>=8.2.8,<9' 'textual-serve>=1.1.3,<2'
versions "$work/newest" textual textual-serve rich twos-tui
say "pip check"
"$work/newest/bin/pip" check
say "pytest -m 'not slow' -k 'not snapshot' (HYPOTHESIS_PROFILE=quick)"
HYPOTHESIS_PROFILE=quick "$work/newest/bin/pytest" -p no:cacheprovider \
    -m "not slow" -k "not snapshot"

say "2/2: twos-tui beside another Textual app, $other_app"
"$py" -m venv "$work/beside"
say "pip install . '$other_app'"
"$work/beside/bin/pip" install -q --disable-pip-version-check . "$other_app"
versions "$work/beside" textual trogon twos-tui
say "pip check"
"$work/beside/bin/pip" check
say "both import: twos_tui.ui.app, trogon"
(cd "$work" && "$work/beside/bin/python" -c 'import trogon, twos_tui.ui.app')
"$work/beside/bin/twos-tui" --version

say "every check passed ($((SECONDS - started)) s)"
