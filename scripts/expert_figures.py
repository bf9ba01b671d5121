#!/usr/bin/env python3
"""The per-task table of docs/experts.md: each scripted expert over the 100 official
seeds, in process, on the embedded default WBC and on the floating base.

Cameras are off (``camera_keys=()``): an expert reads the world state, not images,
and rendering changes no physics, so the figures are those of the official
observation. Run directories land in runs/experts/<task>/<backend>/ (resumable).
``--workers N`` spreads each evaluation over N processes (the same files as one).

    scripts/expert_figures.py [--workers N] [TASK ...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench.eval import evaluate
from bench.policies.experts import EXPERTS

BACKENDS = {"embedded default": {}, "floating base": {"controller": None}}


def main(tasks: list[str], workers: int = 1) -> None:
    """Evaluate each task's expert on both backends and print the markdown rows."""
    rows = []
    for task in tasks or sorted(EXPERTS):
        cells = []
        for label, extra in BACKENDS.items():
            run_dir = Path("runs/experts") / task / label.replace(" ", "_")
            result = evaluate("bench.policies.experts:expert", task, "scripted-expert",
                              overrides={"camera_keys": [], **extra}, run_dir=run_dir,
                              workers=workers)
            s = result["summary"]
            cells.append(f"{s['success_rate']:.0%} | {s['fell_share']:.0%} | "
                         f"{s['mean_control_steps']:.0f}")
            print(f"{task} {label}: {s}", file=sys.stderr)
        rows.append(f"| {task} | {' | '.join(cells)} |")
    print("| task | success | fell | mean steps | success (floating) | fell (floating) | "
          "mean steps (floating) |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="*", help="default: every task with an expert")
    parser.add_argument("--workers", type=int, default=1, help="processes per evaluation")
    args = parser.parse_args()
    main(args.tasks, args.workers)
