"""The evaluation protocol (seed 001): ``evaluate``, seeds, leaderboard records.

    from bench.eval import evaluate
    result = evaluate(my_policy, task_name="move_plate", method="my-method")
    result["record"]               # leaderboard entry, or None (violations / < 100 episodes)
    result["protocol_violations"]  # [] for an official env
    result["env_config"]           # the resolved EnvConfig, as a dict

A policy is any callable from observation to normalized action, with an optional
``reset()`` called between episodes, or a ``module:factory`` string. With a run
directory, each episode's summary is written as it finishes, and a rerun with the same
directory resumes from the first missing episode.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench import config as cfg
from bench.env import make
from bench.eval.fingerprint import fingerprint
from bench.eval.records import EpisodeResult, read_summary, summary_path
from bench.eval.run import SEED_BASE, aggregate, eval_seeds, run_seeds, write_record
from bench.parallel import check_workers
from bench.policies import load_policy
from bench.protocol import protocol_violations

EVAL_EPISODES = 100

__all__ = ["EVAL_EPISODES", "SEED_BASE", "eval_seeds", "evaluate", "leaderboard_record"]


class RecordRefusedError(ValueError):
    """A leaderboard record cannot be made; the message names the cause."""


def _contiguous(seeds: list[int]) -> bool:
    return bool(seeds) and sorted(seeds) == list(range(min(seeds), min(seeds) + len(seeds)))


def leaderboard_record(results: list[EpisodeResult], env: Any, method: str) -> dict[str, Any]:
    """The leaderboard entry for finished episodes of one env, with the substrate
    fingerprint. Refuses (RecordRefusedError) a seed set that is not one contiguous block
    and an env whose configuration departs from the official one where it matters."""
    seeds = [r.seed for r in results]
    if not _contiguous(seeds):
        raise RecordRefusedError(f"seeds {sorted(seeds)[:5]}... are not one contiguous block; "
                            f"evaluate episodes {SEED_BASE} + i for i in range(n)")
    violations = protocol_violations(env)
    if violations:
        raise RecordRefusedError("results-affecting overrides or substitutions: "
                            + "; ".join(violations))
    return {**aggregate(results, env.spec_.name, method), "fingerprint": fingerprint(env)}


def _progress(done: int, total: int, results: list[EpisodeResult]) -> None:
    n = len(results)
    rate = sum(r.success for r in results) / n if n else 0.0
    fell = sum(r.fell for r in results) / n if n else 0.0
    bar = "#" * (30 * done // total) + "-" * (30 - 30 * done // total)
    sys.stderr.write(f"\r[{bar}] {done}/{total}  success {rate:6.1%}  fell {fell:6.1%}")
    sys.stderr.flush()
    if done == total:
        sys.stderr.write("\n")


def _run_graph(policy: str, task_name: str, method: str, overrides: dict[str, Any],
               episodes: int, run_dir: Path) -> list[EpisodeResult]:
    """The same episodes through the ROS 2 graph (``bench launch eval``)."""
    command = [sys.executable, "-m", "bench.cli", "launch", "eval", f"task:={task_name}",
               f"policy:={policy}", f"method:={method}", f"episodes:={episodes}",
               f"seed_start:={SEED_BASE}", f"output_dir:={run_dir}",
               f"overrides:={json.dumps(overrides)}"]
    code = subprocess.call(command)
    if code != 0:
        raise RuntimeError(f"the graph evaluation failed (exit code {code}); the finished "
                           f"episodes are in {run_dir}, rerun to resume")
    return [read_summary(summary_path(run_dir, seed)) for seed in eval_seeds(episodes)]


def evaluate(policy: Any, task_name: str, method: str, overrides: dict[str, Any] | None = None,
             episodes: int = EVAL_EPISODES, run_dir: str | Path | None = None,
             progress: bool = True, via: str = "process",
             videos: bool = False, workers: int = 1) -> dict[str, Any]:
    """Run the protocol and return record, protocol_violations, env_config and the
    per-episode results. ``via="graph"`` runs the same episodes through the ROS 2 graph
    (the policy must then be a ``module:factory`` string) with identical results.
    ``videos`` writes each episode's head-camera and external mp4 into the run directory
    (it sets render_mode, an official override that changes no result). ``workers`` > 1
    runs the episodes in that many processes (in process only; the policy must be a
    ``module:factory`` string whose episodes depend only on the seed: see
    ``bench.parallel``), with the results of the sequential run."""
    if via not in ("process", "graph"):
        raise ValueError(f"via={via!r}: choose 'process' or 'graph'")
    check_workers(workers)
    if workers > 1 and (via == "graph" or not isinstance(policy, str)):
        raise ValueError("workers > 1 need via='process' and the policy as a "
                         "module:factory string (each worker loads its own copy)")
    if videos and (run_dir is None or via == "graph"):
        raise ValueError("videos need a run_dir and run in process (via='process')")
    overrides = {**(overrides or {}), **({"render_mode": "rgb_array"} if videos else {})}
    env = make(task_name, **overrides)
    try:
        if via == "graph":
            if not isinstance(policy, str):
                raise ValueError("via='graph' needs the policy as a module:factory string")
            with tempfile.TemporaryDirectory() as tmp:
                results = _run_graph(policy, task_name, method, overrides, episodes,
                                     Path(run_dir or tmp))
        else:
            if isinstance(policy, str) and workers == 1:
                policy = load_policy(policy, task_name)
            results = run_seeds(
                env, policy, eval_seeds(episodes), Path(run_dir) if run_dir else None, videos,
                (lambda done: _progress(len(done), episodes, done)) if progress else None,
                workers)
        violations = protocol_violations(env)
        record = None
        if not violations and episodes == EVAL_EPISODES:
            record = leaderboard_record(results, env, method)
        if run_dir:
            write_record(Path(run_dir), results, task_name, method)
        return {"record": record, "protocol_violations": violations,
                "env_config": cfg.to_dict(env.config),
                "summary": aggregate(results, task_name, method),
                "results": [r.to_dict() for r in results]}
    finally:
        env.close()
