"""The `bench` command line. Later issues add subcommands here."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bench import assets, info, selftest
from bench.robot import meshes
from bench.tasks import TASKS


def _fetch_assets(args: argparse.Namespace) -> int:
    try:
        for name, actions in assets.fetch_all(force=args.force):
            source = assets.SOURCES[name]
            done = "; ".join(actions) if actions else "already present, hashes verified"
            print(f"{source.requirement}: {done}")
        lines = meshes.build_decimated(force=args.force)
        print("; ".join(lines) if lines else "decimated meshes: already present, hashes verified")
    except assets.AssetError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


def _tasks(args: argparse.Namespace) -> int:
    if not TASKS:
        print("no tasks registered yet")
    for name in sorted(TASKS):
        print(name)
    return 0


def _info(args: argparse.Namespace) -> int:
    report = info.collect()
    print(json.dumps(report, indent=2) if args.json else info.format_text(report))
    return 0


def _report(args: argparse.Namespace) -> int:
    from bench.eval.report import write_report

    try:
        path = write_report(args.run_dir, args.out)
    except FileNotFoundError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {path}")
    return 0


def _launch(args: argparse.Namespace) -> int:
    from bench.launcher import launch

    try:
        return launch(args.graph, args.arguments, composed=args.composed)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _given(value: int | None, default: int) -> int:
    """An option's value, or ``default`` where it was not given (None)."""
    return default if value is None else value


def _demos(args: argparse.Namespace) -> int:
    from bench import demos

    def progress(kept: int, wanted: int, failed: int) -> None:
        sys.stderr.write(f"\r{args.task}: {kept}/{wanted} demonstrations, {failed} failed")
        sys.stderr.flush()

    out = args.out or Path("runs") / "demos" / args.task
    episodes = _given(args.episodes, demos.DEMOS_PER_TASK)
    try:
        meta = demos.record(args.task, out, args.policy, episodes,
                            _given(args.seed_start, demos.DEMO_SEED_START), args.cameras,
                            progress=progress, floating_base=args.floating_base,
                            workers=args.workers,
                            cap=_given(args.cap, demos.COLLECTOR_CAP_CONTROL_STEPS))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    sys.stderr.write("\n")
    print(f"{len(meta['episodes'])} demonstrations in {out}; longest {meta['longest_env_steps']} "
          f"env steps; BUDGET_RULE gives {meta['budget_rule']}")
    return 0 if len(meta["episodes"]) == episodes else 1


def _selftest(args: argparse.Namespace) -> int:
    return selftest.run()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="bench", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    fetch = sub.add_parser("fetch-assets", help="download and verify the third-party assets")
    fetch.add_argument("--force", action="store_true",
                       help="unpack afresh, replacing damaged files (downloads only if needed)")
    fetch.set_defaults(handler=_fetch_assets)

    tasks = sub.add_parser("tasks", help="list the task registry")
    tasks.set_defaults(handler=_tasks)

    show = sub.add_parser("info", help="versions, asset paths and hashes, render and ROS 2 status")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(handler=_info)

    sub.add_parser("eval", help="run the evaluation protocol in process (bench eval --help)")

    report = sub.add_parser("report", help="HTML page and PNG plots of one or more runs")
    report.add_argument("run_dir", type=Path)
    report.add_argument("--out", type=Path, default=None, help="default: RUN_DIR/report")
    report.set_defaults(handler=_report)

    start = sub.add_parser("launch", help="start the ROS 2 graph without a ROS 2 distribution")
    start.add_argument("graph", help="graph to start: eval")
    start.add_argument("arguments", nargs="*", help="launch arguments as name:=value")
    start.add_argument("--composed", action="store_true",
                       help="run every node in one process (default: one process per node)")
    start.set_defaults(handler=_launch)

    demo = sub.add_parser("demos", help="record an expert's successful demonstrations")
    demo.add_argument("task")
    demo.add_argument("--out", type=Path, default=None, help="batch directory (runs/demos/TASK)")
    demo.add_argument("--episodes", type=int, default=None,
                      help="successful episodes to keep (default: bench.demos.DEMOS_PER_TASK)")
    demo.add_argument("--seed-start", type=int, default=None,
                      help="first seed tried (default: bench.demos.DEMO_SEED_START, outside the "
                           "evaluation block 620000-620099)")
    demo.add_argument("--policy", default="bench.policies.experts:expert",
                      help="module:factory (default: the task's scripted expert)")
    demo.add_argument("--cameras", action="store_true",
                      help="also record the three 84x84 RGB views (rgb_obs)")
    demo.add_argument("--floating-base", action="store_true",
                      help="record on the floating base, for an expert that needs the height "
                           "or torso-pitch command (NEEDS_COMMAND)")
    demo.add_argument("--workers", type=int, default=1,
                      help="record in this many processes (the same batch as one)")
    demo.add_argument("--cap", type=int, default=None,
                      help="the collector's episode cap in control steps (default and least: "
                           "bench.demos.COLLECTOR_CAP_CONTROL_STEPS; more for an expert whose "
                           "episodes run longer)")
    demo.set_defaults(handler=_demos)

    check = sub.add_parser("selftest",
                           help="load the G1, run the WBC policy once, ROS 2 round trip")
    check.set_defaults(handler=_selftest)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `bench` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["eval"]:  # the runner owns its arguments
        from bench.eval import runner

        return runner.main(argv[1:], prog="bench eval")
    args = build_parser().parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
