"""An evaluation run: seeds in order, one summary file per episode, and the run record.

The same files come out of the in-process loop (``run_in_process``) and the graph's
evaluator node; ``record.json`` holds only what both wirings determine identically.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import Any

from bench.eval.episode import run_episode
from bench.eval.records import (
    EpisodeResult,
    MetricTracker,
    atomic_write_text,
    read_summary,
    summary_path,
    write_metrics,
    write_summary,
)
from bench.eval.video import EpisodeVideo
from bench.parallel import seed_pool

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


def run_seed(env: Any, policy: Any, seed: int, run_dir: Path | None = None,
             videos: bool = False) -> tuple[EpisodeResult, dict[str, float]]:
    """Run one seed; with a run directory, write its metrics and then its summary (the
    summary marks it finished), and with ``videos`` its mp4s. Returns the result and
    the wall-clock timing."""
    timing: dict[str, float] = {}
    tracker = MetricTracker()
    video = EpisodeVideo(run_dir, seed) if videos and run_dir else None
    result = run_episode(env, policy, seed, timing, tracker, video)
    if run_dir:
        write_metrics(run_dir, seed, tracker.rows)
        write_summary(run_dir, result)
    return result, timing


def _finished(run_dir: Path | None, seed: int) -> Path | None:
    """The seed's summary file in the run directory, if the seed has finished there."""
    path = summary_path(run_dir, seed) if run_dir else None
    return path if path is not None and path.exists() else None


def run_seeds(env: Any, policy: Any, seeds: list[int], run_dir: Path | None = None,
              videos: bool = False,
              on_episode: Callable[[list[EpisodeResult]], None] | None = None,
              workers: int = 1) -> list[EpisodeResult]:
    """Run the seeds in order (``run_seed``). Seeds whose summary exists in the run
    directory are read back instead of rerun (resume; checked as each seed comes up,
    so a second process running the seeds in reverse order shares the work), and
    ``timing.json`` gets the wall-clock times. ``on_episode`` sees the results so far
    after every seed.

    ``workers`` > 1 runs the seeds in that many processes (``bench.parallel``), each
    with its own env like ``env`` (same task and configuration) and its own copy of
    ``policy``, which must then be a ``module:factory`` string; the results are those
    of the sequential loop for a policy whose episodes depend only on the seed."""
    job = partial(run_seed, run_dir=run_dir, videos=videos)
    results: list[EpisodeResult] = []
    timing: dict[int, dict[str, float]] = {}
    with ExitStack() as stack:
        pooled: set[int] = set()
        if workers > 1:
            todo = [seed for seed in seeds if _finished(run_dir, seed) is None]
            pooled = set(todo)
            if todo:
                fresh = stack.enter_context(seed_pool(env.spec_.name, policy, env.config,
                                                      min(workers, len(todo))))(job, todo)
        for seed in seeds:
            finished = None if seed in pooled else _finished(run_dir, seed)
            if finished is not None:
                result = read_summary(finished)
            else:
                result, timing[seed] = next(fresh) if seed in pooled else job(env, policy, seed)
            results.append(result)
            if on_episode is not None:
                on_episode(results)
    if run_dir and timing:
        write_timing(run_dir, timing)
    return results


def run_in_process(env: Any, policy: Any, seeds: list[int], run_dir: Path,
                   method: str) -> list[EpisodeResult]:
    """Run the seeds in order, writing each summary as it finishes, then the record."""
    results = run_seeds(env, policy, seeds, Path(run_dir))
    write_record(run_dir, results, env.spec_.name, method)
    return results
