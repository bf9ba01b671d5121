"""The reference runner: ``python -m bench.eval.runner --task move_plate --method my-method
--policy my_package.eval:make_policy --out record.json`` (also ``bench eval``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bench.eval import EVAL_EPISODES, RecordRefusedError, evaluate
from bench.eval.records import atomic_write_text


def build_parser(prog: str = "python -m bench.eval.runner") -> argparse.ArgumentParser:
    """The runner's arguments."""
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("--task", required=True)
    parser.add_argument("--method", required=True)
    parser.add_argument("--policy", required=True, help="module:factory")
    parser.add_argument("--out", type=Path, required=True, help="where to write the result JSON")
    parser.add_argument("--episodes", type=int, default=EVAL_EPISODES)
    parser.add_argument("--run-dir", type=Path, default=None,
                        help="per-episode summaries; rerun with it to resume")
    parser.add_argument("--override", action="append", default=[], metavar="FIELD=JSON",
                        help="config override, e.g. --override frame_stack=2")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--via", choices=("process", "graph"), default="process",
                        help="run in this process, or through the ROS 2 graph")
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "python -m bench.eval.runner") -> int:
    """Run an evaluation and write its result; exit 0, or 2 on bad input."""
    args = build_parser(prog).parse_args(argv)
    overrides = {}
    for item in args.override:
        name, sep, value = item.partition("=")
        if not sep:
            print(f"error: --override {item!r} is not FIELD=JSON", file=sys.stderr)
            return 2
        overrides[name] = json.loads(value)
    try:
        result = evaluate(args.policy, args.task, args.method, overrides, args.episodes,
                          args.run_dir, progress=not args.quiet, via=args.via)
    except (ValueError, RuntimeError, RecordRefusedError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    atomic_write_text(args.out, json.dumps(result, indent=2) + "\n")
    summary = result["summary"]
    why = "; ".join(result["protocol_violations"]) or "fewer than 100 episodes"
    verdict = "leaderboard record written" if result["record"] else f"no leaderboard record ({why})"
    print(f"{args.task}: success {summary['success_rate']:.1%}, fell "
          f"{summary['fell_share']:.1%} over {summary['episodes']} episodes; {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
