#!/usr/bin/env bash
# The README's main command: set up what is missing, then run the main job: an
# evaluation of flip_cup through the ROS 2 graph (simulator, WBC, task monitor, policy
# and evaluator nodes) on the embedded default lower-body controller, with flip_cup's
# scripted expert as the policy (bench.policies.experts, docs/experts.md).
# Extra arguments are launch arguments and win over these, e.g.
# scripts/run-main.sh episodes:=10 policy:=my_pkg.policy:make
set -euo pipefail
source "$(dirname "$0")/bootstrap.sh"
cd "$REPO"
export ROS_DOMAIN_ID=${ROS_DOMAIN_ID:-42}
out=runs/main
rm -rf "$out"  # a fresh evaluation each time (the evaluator would resume an old one)
"$VENV/bin/bench" launch eval task:=flip_cup episodes:=3 output_dir:="$out" \
    policy:=bench.policies.experts:expert method:=scripted-expert "$@"
echo "record: $out/record.json" >&2
cat "$out/record.json"
