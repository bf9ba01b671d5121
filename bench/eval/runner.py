"""The reference runner: ``python -m bench.eval.runner --task move_plate --method my-method
--policy my_package.eval:make_policy --out record.json`` (also ``bench eval``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bench.eval import EVAL_EPISODES, RecordRefusedError, evaluate
from bench.eval.checkpoints import headline, peak_final_selection
from bench.eval.records import atomic_write_text


def build_parser(prog: str = "python -m bench.eval.runner") -> argparse.ArgumentParser:
    """The runner's arguments."""
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("--task", required=True)
    parser.add_argument("--method", required=True)
    parser.add_argument("--policy", help="module:factory (or use --checkpoint)")
    parser.add_argument("--checkpoint", action="append", default=[], metavar="STEP=SPEC",
                        help="checkpoints mode: evaluate each module:factory at its training "
                             "step, report the headline (mean of the last 5 +- s.e.)")
    parser.add_argument("--out", type=Path, required=True, help="where to write the result JSON")
    parser.add_argument("--episodes", type=int, default=EVAL_EPISODES)
    parser.add_argument("--run-dir", type=Path, default=None,
                        help="per-episode summaries; rerun with it to resume")
    parser.add_argument("--override", action="append", default=[], metavar="FIELD=JSON",
                        help="config override, e.g. --override frame_stack=2")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--via", choices=("process", "graph"), default="process",
                        help="run in this process, or through the ROS 2 graph")
    parser.add_argument("--videos", action="store_true",
                        help="write head-camera and external mp4 per episode (needs --run-dir)")
    parser.add_argument("--workers", type=int, default=1,
                        help="run the episodes in this many processes (in process only; "
                             "same results as one)")
    return parser


def _checkpoints(args: argparse.Namespace, overrides: dict) -> int:
    """Evaluate every checkpoint and write the headline, peak and final."""
    specs = {}
    for item in args.checkpoint:
        step, sep, spec = item.partition("=")
        if not sep or not step.isdigit():
            raise ValueError(f"--checkpoint {item!r} is not STEP=module:factory")
        specs[int(step)] = spec
    results = {}
    for step, spec in sorted(specs.items()):
        run_dir = args.run_dir / f"checkpoint_{step}" if args.run_dir else None
        results[step] = evaluate(spec, args.task, args.method, overrides, args.episodes,
                                 run_dir, progress=not args.quiet, via=args.via,
                                 workers=args.workers)
    rates = {step: r["summary"]["success_rate"] for step, r in results.items()}
    report = {"task": args.task, "method": args.method, "headline": headline(rates),
              "appendix": peak_final_selection(rates),
              "checkpoints": {str(step): r for step, r in results.items()}}
    atomic_write_text(args.out, json.dumps(report, indent=2) + "\n")
    head = report["headline"]
    print(f"{args.task}: headline success {head['mean']:.1%} +- {head['stderr']:.1%} over "
          f"checkpoints {head['checkpoints']}")
    return 0


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
    if bool(args.policy) == bool(args.checkpoint):
        print("error: give --policy, or one --checkpoint STEP=module:factory per checkpoint",
              file=sys.stderr)
        return 2
    try:
        if args.checkpoint:
            return _checkpoints(args, overrides)
        result = evaluate(args.policy, args.task, args.method, overrides, args.episodes,
                          args.run_dir, progress=not args.quiet, via=args.via,
                          videos=args.videos, workers=args.workers)
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
