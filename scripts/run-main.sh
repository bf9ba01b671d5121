#!/usr/bin/env bash
# The README's main command: set up what is missing, then run the main job.
# Until the evaluator exists the main job is `bench selftest`, the most end-to-end
# check available: the G1 model in MuJoCo, the embedded locomotion policy, ROS 2.
set -euo pipefail
source "$(dirname "$0")/bootstrap.sh"
cd "$REPO"
exec "$VENV/bin/bench" selftest "$@"
