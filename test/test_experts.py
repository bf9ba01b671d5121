"""Scripted experts: each solves its task on two evaluation seeds with the embedded
default WBC; the oracle channel feeds the world state in process as the graph does;
an expert gives identical files through the ROS 2 graph."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench.env import make
from bench.eval.episode import run_episode
from bench.eval.run import run_in_process
from bench.policies import load_policy
from bench.policies.experts import EXPERTS, PENDING, expert
from bench.policies.oracle import WorldState
from bench.tasks import BENCHMARK_TASKS

SEEDS = (620000, 620001)


def test_every_benchmark_task_has_an_expert_or_a_stated_reason():
    for task in BENCHMARK_TASKS:
        assert task in EXPERTS or PENDING.get(task), task
    assert not set(EXPERTS) & set(PENDING)


def test_a_task_without_expert_names_the_reason_and_the_experts():
    with pytest.raises(ValueError, match="no scripted expert for 'pick_box'.*reach_target_dual"):
        expert("pick_box")


@pytest.mark.parametrize("task", sorted(EXPERTS))
def test_expert_succeeds_on_two_seeds(task):
    env = make(task, camera_keys=())  # an oracle reads no images; physics is unchanged
    policy = expert(task)
    try:
        for seed in SEEDS:
            result = run_episode(env, policy, seed)
            assert result.success, (task, seed, result.termination, result.final_metrics)
            assert not result.fell
    finally:
        env.close()


class _Recorder:
    """An oracle that records what it is fed and holds still."""

    def __init__(self, task: str):
        self.hold = load_policy("bench.policies.builtin:hold", task)
        self.states: list[WorldState] = []
        self.calls_before_state = 0

    def observe_world(self, state: WorldState) -> None:
        self.states.append(state)

    def __call__(self, observation):
        if not self.states:
            self.calls_before_state += 1
        return self.hold(observation)


def test_oracle_gets_the_world_state_after_every_step_in_process():
    env = make("reach_target_single", camera_keys=(), episode_length=100)  # 10 steps
    policy = _Recorder("reach_target_single")
    try:
        run_episode(env, policy, 620000)
        assert [s.control_step for s in policy.states] == list(range(1, 11))
        assert policy.calls_before_state == 1  # the first action sees no world state
        assert all(s.seed == 620000 for s in policy.states)
        np.testing.assert_array_equal(policy.states[-1].qpos, env.world.data.qpos)
    finally:
        env.close()


@pytest.mark.usefixtures("ros_domain")
def test_expert_through_the_graph_writes_the_same_files_as_in_process(tmp_path):
    pytest.importorskip("rclpy", reason="the ROS 2 wheels (ros-rclpy) are not installed")
    overrides = '{"camera_keys": []}'
    spec = "bench.policies.experts:expert"
    task = "reach_target_dual"
    env = make(task, camera_keys=())
    try:
        run_in_process(env, load_policy(spec, task), [620000], tmp_path / "process", "expert")
    finally:
        env.close()
    command = [sys.executable, "-m", "bench.cli", "launch", "eval", f"task:={task}",
               "episodes:=1", f"overrides:={overrides}", f"output_dir:={tmp_path / 'graph'}",
               f"policy:={spec}", "method:=expert"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False,
                            env=dict(os.environ))
    assert result.returncode == 0, result.stderr[-3000:]

    def files(root: Path) -> dict[str, str]:
        return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*.json*"))
                if p.name != "timing.json"}

    graph, process = files(tmp_path / "graph"), files(tmp_path / "process")
    assert '"success": true' in graph["summaries/episode_620000.json"]
    assert graph == process
