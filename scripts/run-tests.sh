#!/usr/bin/env bash
# The README's test command: set up what is missing, then run the whole suite.
# Extra arguments go to pytest, e.g. scripts/run-tests.sh -k interfaces
set -euo pipefail
source "$(dirname "$0")/bootstrap.sh"
cd "$REPO"
exec "$VENV/bin/pytest" "$@"
