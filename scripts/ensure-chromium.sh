#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (Playwright's own download cannot work here).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
else
    echo "note: /usr/bin/chromium is missing; the browser tests will be skipped" >&2
fi
