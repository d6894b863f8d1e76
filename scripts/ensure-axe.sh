#!/usr/bin/env bash
# The accessibility test (tests/browser/test_a11y.py) injects axe-core, pinned in package.json
# and package-lock.json: install it into node_modules/ with `npm ci` when it is missing or the
# lock changed; cheap when nothing changed. Without npm the test skips (fails with CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.cardroom-lock
want=$(sha256sum package-lock.json | cut -c1-64)
if [ -f node_modules/axe-core/axe.min.js ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    exit 0
fi
if ! command -v npm >/dev/null; then
    echo "note: npm is missing; the accessibility test will be skipped (CI=true: fail)" >&2
    exit 0
fi
echo "installing axe-core (package-lock.json) into node_modules ..." >&2
log=$(mktemp)
if ! npm ci --no-audit --no-fund >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    rm -f "$log"
    if [ "${CI:-}" = true ]; then exit 1; fi
    echo "note: npm ci failed; the accessibility test will be skipped" >&2
    exit 0
fi
rm -f "$log"
echo "$want" > "$stamp"
