#!/usr/bin/env bash
# tests/scale/test_tls.py runs Debian's nginx with deploy/nginx.conf (docker does not run here).
# The package's own service is not started: the machines' policy-rc.d forbids it.
set -euo pipefail
if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends nginx >/dev/null
else
    echo "note: nginx is missing; the TLS test will be skipped (a failure with CI=true)" >&2
fi
