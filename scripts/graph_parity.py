#!/usr/bin/env python3
"""Run a task's scripted expert through the ROS 2 graph and check that every episode
file it writes is byte-identical to the in-process run of ``scripts/expert_figures.py``.

The graph (one process per node, ``bench launch eval``) runs the first N official
seeds with cameras off, as the in-process figures do, into runs/experts_graph/<task>/;
each ``summaries/episode_<seed>.json`` and ``metrics/episode_<seed>.jsonl`` is then
compared with the same file under runs/experts/<task>/embedded_default/ (run
``scripts/expert_figures.py TASK`` first). Exit status 1 on any difference.

    scripts/graph_parity.py TASK [--episodes N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

IN_PROCESS = Path("runs/experts")
GRAPH = Path("runs/experts_graph")
EPISODE_FILES = ("summaries/*.json", "metrics/*.jsonl")


def episode_files(root: Path) -> dict[str, bytes]:
    """Per-episode files of a run directory, by relative path."""
    return {str(p.relative_to(root)): p.read_bytes()
            for pattern in EPISODE_FILES for p in sorted(root.glob(pattern))}


def run_graph(task: str, episodes: int, out: Path) -> None:
    """Evaluate the expert through the graph (a fresh run directory)."""
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "bench.cli", "launch", "eval", f"task:={task}",
               f"episodes:={episodes}", 'overrides:={"camera_keys": []}',
               f"output_dir:={out}", "policy:=bench.policies.experts:expert",
               "method:=scripted-expert"]
    subprocess.run(command, check=True, env=dict(os.environ))


def compare(task: str, graph_dir: Path) -> tuple[int, list[str]]:
    """(episodes compared, differing or missing files) against the in-process run."""
    process_dir = IN_PROCESS / task / "embedded_default"
    graph, process = episode_files(graph_dir), episode_files(process_dir)
    if not graph:
        raise SystemExit(f"the graph wrote no episode files under {graph_dir}")
    differing = [name for name, data in graph.items() if process.get(name) != data]
    return len([n for n in graph if n.startswith("summaries/")]), differing


def main() -> int:
    """Run, compare, print one line per task; exit 1 on a difference."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task")
    parser.add_argument("--episodes", type=int, default=100)
    args = parser.parse_args()
    out = GRAPH / args.task
    run_graph(args.task, args.episodes, out)
    episodes, differing = compare(args.task, out)
    record = json.loads((out / "record.json").read_text())
    print(f"{args.task}: {episodes} episodes through the graph, success "
          f"{record['success_rate']:.0%}; "
          + ("all files identical to the in-process run" if not differing
             else f"{len(differing)} files differ: {', '.join(differing[:5])}"))
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
