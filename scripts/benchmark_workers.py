#!/usr/bin/env python3
"""Evaluation throughput against the number of worker processes (bench.parallel).

Runs the same official seeds of a task's scripted expert (cameras off, no run
directory) with 1 worker and then with each --workers value, and prints episodes per
second and the speedup over one worker as a markdown table; docs/benchmarks.md keeps
the figures. It also checks that every run gave the results of the sequential one.

Usage: .venv/bin/python scripts/benchmark_workers.py [--task reach_target_single]
       [--episodes 16] [--workers 2 ...]
"""

from __future__ import annotations

import argparse
import os
import time

from bench.eval import evaluate


def timed(task: str, episodes: int, workers: int) -> tuple[float, list[dict]]:
    """Wall-clock seconds of one evaluation, and its per-episode results."""
    start = time.perf_counter()
    result = evaluate("bench.policies.experts:expert", task, "benchmark",
                      {"camera_keys": []}, episodes=episodes, progress=False,
                      workers=workers)
    return time.perf_counter() - start, result["results"]


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="reach_target_single")
    parser.add_argument("--episodes", type=int, default=16)
    parser.add_argument("--workers", type=int, nargs="*", default=[len(os.sched_getaffinity(0))])
    args = parser.parse_args()
    alone, reference = timed(args.task, args.episodes, 1)
    print(f"{args.task}, {args.episodes} episodes, {len(os.sched_getaffinity(0))} cores\n")
    print("| workers | seconds | episodes/s | speedup |\n|---|---|---|---|")
    print(f"| 1 | {alone:.1f} | {args.episodes / alone:.2f} | 1.00 |")
    for workers in args.workers:
        seconds, results = timed(args.task, args.episodes, workers)
        if results != reference:
            raise SystemExit(f"{workers} workers gave other results than one")
        print(f"| {workers} | {seconds:.1f} | {args.episodes / seconds:.2f} | "
              f"{alone / seconds:.2f} |")


if __name__ == "__main__":
    main()
