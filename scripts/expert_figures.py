#!/usr/bin/env python3
"""The per-task table of docs/experts.md: each scripted expert over the 100 official
seeds, in process, on the embedded default WBC and on the floating base.

Cameras are off (``camera_keys=()``): an expert reads the world state, not images,
and rendering changes no physics, so the figures are those of the official
observation. Run directories land in runs/experts/<task>/<backend>/ (resumable).
``--workers N`` spreads each evaluation over N processes (the same files as one);
``--backend`` runs one backend only. An expert that needs the height or torso-pitch
command (``NEEDS_COMMAND``) gets its 100 seeds on the floating base and
NEEDS_COMMAND_EMBEDDED seeds on the embedded default, enough to show that it fails
there.

    scripts/expert_figures.py [--workers N] [--backend embedded|floating]
                              [--episodes N] [--runs DIR] [TASK ...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench.eval import EVAL_EPISODES, evaluate
from bench.policies.experts import EXPERTS, NEEDS_COMMAND

BACKENDS = {"embedded default": {}, "floating base": {"controller": None}}
NEEDS_COMMAND_EMBEDDED = 10  # official seeds on the embedded default for such an expert


def main(tasks: list[str], workers: int = 1, backends: tuple[str, ...] = tuple(BACKENDS),
         episodes: int = EVAL_EPISODES, runs: Path = Path("runs/experts")) -> None:
    """Evaluate each task's expert on the backends and print the markdown rows."""
    rows = []
    for task in tasks or sorted(EXPERTS):
        cells = []
        for label in backends:
            run_dir = runs / task / label.replace(" ", "_")
            count = (min(episodes, NEEDS_COMMAND_EMBEDDED) if task in NEEDS_COMMAND
                     and label == "embedded default" else episodes)
            result = evaluate("bench.policies.experts:expert", task, "scripted-expert",
                              overrides={"camera_keys": [], **BACKENDS[label]},
                              episodes=count, run_dir=run_dir, workers=workers)
            s = result["summary"]
            cells.append(f"{s['successes']} of {s['episodes']} | {s['fell_share']:.0%} | "
                         f"{s['mean_control_steps']:.0f}")
            print(f"{task} {label}: {s}", file=sys.stderr)
        rows.append(f"| {task} | {' | '.join(cells)} |")
    print("| task | " + " | ".join(f"success ({b}) | fell | mean steps" for b in backends)
          + " |")
    print("|---|" + "---|---|---|" * len(backends))
    print("\n".join(rows))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="*", help="default: every task with an expert")
    parser.add_argument("--workers", type=int, default=1, help="processes per evaluation")
    parser.add_argument("--backend", choices=("embedded", "floating"), default=None,
                        help="one backend only (default: both)")
    parser.add_argument("--episodes", type=int, default=EVAL_EPISODES,
                        help="official seeds from 620000 (a sample: no leaderboard record)")
    parser.add_argument("--runs", type=Path, default=Path("runs/experts"),
                        help="where the run directories go")
    args = parser.parse_args()
    chosen = tuple(b for b in BACKENDS if args.backend is None or b.startswith(args.backend))
    main(args.tasks, args.workers, chosen, args.episodes, args.runs)
