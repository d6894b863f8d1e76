#!/usr/bin/env bash
# Make .venv hold exactly what pyproject.toml pins; cheap when nothing changed.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
stamp=.venv/.cardroom-installed
want=$(sha256sum pyproject.toml | cut -c1-64)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "installing cardroom's pinned dependencies into .venv ..." >&2
    log=.venv/install.log
    if ! { .venv/bin/python -m pip install --upgrade pip &&
           .venv/bin/python -m pip install -e ".[test]"; } >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        exit 1
    fi
    echo "$want" > "$stamp"
fi
