"""An evaluation run: seeds in order, one summary file per episode, and the run record.

The same files come out of the in-process loop (``run_in_process``) and the graph's
evaluator node; ``record.json`` holds only what both wirings determine identically.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bench.eval.episode import run_episode
from bench.eval.records import (
    EpisodeResult,
    MetricTracker,
    atomic_write_text,
    write_metrics,
    write_summary,
)

SEED_BASE = 620000


def eval_seeds(episodes: int = 100, start: int = SEED_BASE) -> list[int]:
    """One contiguous block: episode i uses seed start + i."""
    return [start + i for i in range(episodes)]


def aggregate(results: Iterable[EpisodeResult], task: str, method: str) -> dict[str, Any]:
    """Success rate, fell share and termination counts over finished episodes."""
    results = sorted(results, key=lambda r: r.seed)
    n = len(results)
    return {
        "task": task,
        "method": method,
        "episodes": n,
        "seeds": [r.seed for r in results],
        "successes": sum(r.success for r in results),
        "success_rate": sum(r.success for r in results) / n if n else 0.0,
        "fell_share": sum(r.fell for r in results) / n if n else 0.0,
        "terminations": dict(sorted(Counter(r.termination for r in results).items())),
        "mean_control_steps": sum(r.control_steps for r in results) / n if n else 0.0,
    }


def write_record(run_dir: Path, results: list[EpisodeResult], task: str, method: str) -> Path:
    """Write ``record.json`` for the finished episodes; returns its path."""
    path = Path(run_dir) / "record.json"
    atomic_write_text(path, json.dumps(aggregate(results, task, method), indent=2) + "\n")
    return path


def write_timing(run_dir: Path, timing: dict[int, dict[str, float]]) -> Path:
    """Write ``timing.json``: wall-clock seconds per episode (kept apart from the
    deterministic files, since it differs from run to run)."""
    path = Path(run_dir) / "timing.json"
    atomic_write_text(path, json.dumps({str(k): v for k, v in timing.items()}, indent=2) + "\n")
    return path


def run_in_process(env: Any, policy: Any, seeds: list[int], run_dir: Path,
                   method: str) -> list[EpisodeResult]:
    """Run the seeds in order, writing each summary as it finishes, then the record."""
    results: list[EpisodeResult] = []
    timing: dict[int, dict[str, float]] = {}
    for seed in seeds:
        timing[seed] = {}
        tracker = MetricTracker()
        result = run_episode(env, policy, seed, timing[seed], tracker)
        write_metrics(run_dir, seed, tracker.rows)
        write_summary(run_dir, result)
        results.append(result)
    write_record(run_dir, results, env.spec_.name, method)
    write_timing(run_dir, timing)
    return results
