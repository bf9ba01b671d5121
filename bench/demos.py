"""Demonstrations: recording an expert's successful episodes, and loading them.

A batch is one directory:

    <dir>/metadata.json          the batch: task, policy, seeds tried and kept, the
                                 layouts, the env configuration, the collector's cap
    <dir>/episode_<seed>.npz     one successful episode

Each ``.npz`` holds, for an episode of T control steps:

    low_dim   (T+1, D) float32  official low-dim observations, the reset's first
    action    (T, A)   float32  official normalized whole-body actions
    reward    (T,)     float32
    rgb_obs   (T+1, 3, 3, 84, 84) uint8, only in batches recorded with cameras
    seed, success, fell  scalars

Load a batch in one line: ``episodes = bench.demos.load("runs/demos/flip_cup")`` (a list
of dicts of arrays, in seed order). Demonstration seeds start at DEMO_SEED_START,
outside the evaluation block 620000-620099.

The collector's cap (``episode_length`` in metadata.json) is 6000 control steps by
default, the least the seed allows; ``cap`` raises it for an expert whose episodes run
longer. It is not the benchmark budget. BUDGET_RULE turns the longest
successful demonstration into the budget (``budget_rule``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import numpy as np

from bench import config as cfg
from bench import layout
from bench.env import BenchEnv, make
from bench.eval.run import SEED_BASE
from bench.parallel import check_workers, seed_pool
from bench.policies import load_policy
from bench.policies.oracle import env_world_state, feed_world
from bench.tasks.budgets import budget_rule

DEMO_SEED_START = 700000  # first demonstration seed (evaluation uses 620000-620099)
DEMOS_PER_TASK = 60
COLLECTOR_CAP_CONTROL_STEPS = 6000  # 2 min at 50 Hz: the least cap the seed allows
FORMAT_VERSION = 1


def record_episode(env: BenchEnv, policy: Any, seed: int) -> dict[str, Any]:
    """Run one episode and keep its observations, actions and outcome."""
    if hasattr(policy, "reset"):
        policy.reset()
    observation, _ = env.reset(seed=seed)
    frames, actions, rewards = [observation], [], []
    done = False
    while not done:
        action = np.asarray(policy(observation), np.float32)
        observation, reward, terminated, truncated, _ = env.step(action)
        feed_world(policy, env_world_state(env, seed))
        frames.append(observation)
        actions.append(action)
        rewards.append(reward)
        done = terminated or truncated
    episode = {
        "low_dim": np.stack([f["low_dim"] for f in frames]).astype(np.float32),
        "action": np.stack(actions).astype(np.float32),
        "reward": np.asarray(rewards, np.float32),
        "seed": np.int64(seed),
        "success": np.bool_(env.episode_succeeded() and not env.episode_fell()),
        "fell": np.bool_(env.episode_fell()),
    }
    if env.config.camera_keys:
        episode["rgb_obs"] = np.stack([f["rgb_obs"] for f in frames])
    return episode


def record(task: str, out_dir: str | Path, policy: str = "bench.policies.experts:expert",
           episodes: int = DEMOS_PER_TASK, seed_start: int = DEMO_SEED_START,
           cameras: bool = False, max_attempts: int | None = None,
           progress: Callable[[int, int, int], None] | None = None,
           floating_base: bool = False, workers: int = 1,
           cap: int = COLLECTOR_CAP_CONTROL_STEPS) -> dict[str, Any]:
    """Record ``episodes`` successful episodes of ``policy`` on ``task`` into
    ``out_dir``, trying seeds from ``seed_start`` on (failures are skipped and listed);
    returns the batch metadata. ``cameras`` adds the three 84x84 views;
    ``floating_base`` records on the floating base (``make(task, controller=None)``),
    for an expert that needs the height or torso-pitch command the embedded default
    WBC lacks (``bench.policies.experts.NEEDS_COMMAND``). ``workers`` > 1 records in
    that many processes (``bench.parallel``; ``policy`` is a ``module:factory`` string)
    and keeps the same batch: the first ``episodes`` successful seeds, in order.
    ``cap`` is the collector's episode cap in control steps (COLLECTOR_CAP_CONTROL_STEPS
    at least)."""
    check_workers(workers)
    if cap < COLLECTOR_CAP_CONTROL_STEPS:
        raise ValueError(f"a collector cap of {cap} control steps is below the "
                         f"{COLLECTOR_CAP_CONTROL_STEPS} the protocol asks for; use --cap "
                         f"{COLLECTOR_CAP_CONTROL_STEPS} or more")
    limit = max_attempts or 10 * episodes
    if seed_start <= SEED_BASE + 99 and seed_start + limit > SEED_BASE:
        raise ValueError(f"demonstration seeds from {seed_start} would overlap the evaluation "
                         f"block {SEED_BASE}-{SEED_BASE + 99}; use --seed-start "
                         f"{DEMO_SEED_START}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    overrides: dict[str, Any] = {"episode_length": cap * cfg.EnvConfig().demo_down_sample_rate}
    if not cameras:
        overrides["camera_keys"] = ()
    if floating_base:
        overrides["controller"] = None
    env = make(task, **overrides)
    kept: list[dict[str, Any]] = []
    failed: list[int] = []
    try:
        with ExitStack() as stack:
            seeds = range(seed_start, seed_start + limit)
            if workers > 1:
                episodes_in_order = stack.enter_context(
                    seed_pool(task, policy, env.config, workers))(record_episode, seeds)
            else:
                agent = load_policy(policy, task)
                episodes_in_order = (record_episode(env, agent, seed) for seed in seeds)
            for episode in episodes_in_order:
                seed = int(episode["seed"])
                if episode["success"]:
                    np.savez_compressed(out / f"episode_{seed}.npz", **episode)
                    kept.append({"seed": seed, "control_steps": len(episode["action"]),
                                 "env_steps": len(episode["action"])
                                 * env.config.demo_down_sample_rate})
                else:
                    failed.append(seed)
                if progress is not None:
                    progress(len(kept), episodes, len(failed))
                if len(kept) == episodes:
                    break
        longest = max((k["env_steps"] for k in kept), default=0)
        metadata = {
            "format_version": FORMAT_VERSION,
            "task": task,
            "policy": policy,
            "episodes": kept,
            "failed_seeds": failed,
            "cameras": list(env.config.camera_keys),
            "episode_length": env.config.episode_length,
            "episode_length_note": "the collector's cap in env steps, not the benchmark budget",
            "longest_env_steps": longest,
            "budget_rule": budget_rule(longest) if kept else None,
            "backend": env.backend.name,
            "low_dim_names": layout.low_dim_names(env.config.controller.pitch_command),
            "low_dim_slices": env.low_dim_component_slices(),
            "action_layout": env.wholebody_action_layout(),
            "env_config": cfg.to_dict(env.config),
        }
    finally:
        env.close()
    (out / "metadata.json").write_text(json.dumps(metadata, indent=2) + "\n")
    return metadata


def load(batch_dir: str | Path) -> list[dict[str, np.ndarray]]:
    """All episodes of a batch, in the order metadata.json lists them."""
    root = Path(batch_dir)
    meta_path = root / "metadata.json"
    if not meta_path.exists():
        raise FileNotFoundError(f"{meta_path} not found; record a batch with "
                                "`bench demos TASK --out DIR`")
    metadata = json.loads(meta_path.read_text())
    out = []
    for entry in metadata["episodes"]:
        with np.load(root / f"episode_{entry['seed']}.npz") as data:
            out.append({key: data[key] for key in data.files})
    return out
