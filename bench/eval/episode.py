"""Running one episode in process: the loop that the evaluator node mirrors over ROS."""

from __future__ import annotations

import time
from typing import Any

from bench.env import BenchEnv
from bench.eval.records import EpisodeResult, MetricTracker
from bench.policies.oracle import env_world_state, feed_world


def result_from(task: str, seed: int, *, task_success: bool, fell: bool, termination: str,
                reason: str, control_steps: int, env_steps: int,
                tracker: MetricTracker) -> EpisodeResult:
    """An EpisodeResult from an ended episode's monitor verdict and step metrics; success
    is is_success: the task succeeded and the robot never fell."""
    return EpisodeResult(
        task=task, seed=seed, success=task_success and not fell, task_success=task_success,
        fell=fell, termination=termination, reason=reason, control_steps=control_steps,
        env_steps=env_steps, final_metrics=dict(tracker.last),
        ever_true=dict(tracker.ever_true), first_true_step=dict(tracker.first_true_step))


def run_episode(env: BenchEnv, policy: Any, seed: int,
                timing: dict[str, float] | None = None,
                tracker: MetricTracker | None = None, video: Any = None) -> EpisodeResult:
    """Reset to ``seed``, run the policy to the end of the episode, return the result.
    ``timing``, when given, receives the wall-clock seconds of the reset and the steps;
    ``video`` (an EpisodeVideo) receives every observation."""
    if hasattr(policy, "reset"):
        policy.reset()
    start = time.perf_counter()
    observation, _ = env.reset(seed=seed)
    reset_done = time.perf_counter()
    tracker = tracker if tracker is not None else MetricTracker()
    done = False
    while not done:
        if video is not None:
            video.add(env, observation)
        observation, _, terminated, truncated, info = env.step(policy(observation))
        feed_world(policy, env_world_state(env, seed))
        tracker.update(info["control_step"], info["metrics"], info["held_steps"], info["fell"])
        done = terminated or truncated
    if video is not None:
        video.add(env, observation)
        video.close()
    if timing is not None:
        timing.update(reset_s=reset_done - start, steps_s=time.perf_counter() - reset_done,
                      control_steps=env.control_step)
    status = env.status
    return result_from(env.spec_.name, seed, task_success=status.success, fell=status.fell,
                       termination=env.episode_termination(), reason=status.reason,
                       control_steps=env.control_step, env_steps=env.env_steps,
                       tracker=tracker)
