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
from bench.policies.experts import DRAFTS, EXPERTS, NEEDS_COMMAND, PENDING, draft, expert
from bench.policies.experts.kinematics import Kinematics
from bench.policies.oracle import WorldState, env_world_state, feed_world
from bench.robot.assembly import keyframe_qpos
from bench.tasks import BENCHMARK_TASKS
from bench.tasks.budgets import DEMO_BUDGETS

SEEDS = (620000, 620001)
# Tasks whose longest demonstration exceeds this many env steps (about a minute of CPU
# an episode here) run on the first seed only, which keeps the suite within CI's time;
# the figures over all 100 official seeds are docs/experts.md's.
LONG_EPISODE = 20000


def test_inverse_kinematics_reaches_a_pose_and_a_pointing_direction():
    kin = Kinematics("reach_target_single")
    home = keyframe_qpos(kin.model)
    posed = home.copy()
    posed[kin.qpos_adr["left"]] = [-0.6, 0.3, 0.2, 0.9, 0.2, 0.3, -0.1]  # rad, reachable
    kin.set_state(posed)
    pos, rot = kin.pinch_pose("left")
    kin.set_state(home)
    q, error = kin.solve("left", pos, rot, kin.arm_q("left"), iterations=300)
    assert error < 1e-3
    posed[kin.qpos_adr["left"]] = q
    kin.set_state(posed)
    reached, turned = kin.pinch_pose("left")
    assert np.linalg.norm(reached - pos) < 1e-3
    assert np.degrees(np.arccos(np.clip((np.trace(turned.T @ rot) - 1) / 2, -1, 1))) < 0.5
    kin.set_state(home)  # pointing only: the x axis aligns, the roll is left free
    q, error = kin.solve("left", pos, rot[:, 0], kin.arm_q("left"), iterations=300)
    posed[kin.qpos_adr["left"]] = q
    kin.set_state(posed)
    assert error < 1e-3 and kin.pinch_pose("left")[1][:, 0] @ rot[:, 0] > np.cos(0.01)


def test_forward_kinematics_and_hand_distance_read_the_posed_copy():
    kin = Kinematics("flip_cutlery")
    home = keyframe_qpos(kin.model)
    kin.set_state(home)
    q = np.array([-0.6, 0.3, 0.2, 0.9, 0.2, 0.3, -0.1])  # rad
    pos, rot = kin.pinch_at("left", q)
    posed = home.copy()
    posed[kin.qpos_adr["left"]] = q
    kin.set_state(posed)
    np.testing.assert_allclose(pos, kin.pinch_pose("left")[0], atol=1e-12)
    np.testing.assert_allclose(rot, kin.pinch_pose("left")[1], atol=1e-12)
    kin.set_state(home)
    names = {kin.model.geom(g).name for g in kin.hand_geoms["left"]}
    assert {"left_gripper_pad_a", "left_gripper_pad_b", "left_gripper_housing"} <= names
    assert not any(name.startswith("right") for name in names)
    # the mug (at the origin, on the floor before a reset) is far from the hanging hand
    assert kin.distance("left", kin.arm_q("left"), "mug", horizon=0.05) == 0.05
    # the mug moved so that its rim passes through the posed hand's pinch site
    mug = kin.model.body("mug").jntadr[0]
    home[kin.model.jnt_qposadr[mug]:][:3] = pos - np.array([0.045, 0.0, 0.05])
    kin.set_state(home)
    assert kin.distance("left", q, "mug") < 0.0
    assert kin.distance("left", kin.arm_q("left"), "mug", horizon=0.05) == 0.05


def test_every_benchmark_task_has_an_expert_or_a_stated_reason():
    for task in BENCHMARK_TASKS:
        assert task in EXPERTS or PENDING.get(task), task
    assert not set(EXPERTS) & set(PENDING)
    assert set(NEEDS_COMMAND) <= set(EXPERTS) and all(NEEDS_COMMAND.values())


def test_a_task_without_expert_names_the_reason_and_the_experts(monkeypatch):
    """Every benchmark task has an expert now; one taken out of EXPERTS, with a reason in
    PENDING, is refused with that reason and the list of the tasks that have one."""
    monkeypatch.delitem(EXPERTS, "sandwich_remove")
    monkeypatch.setitem(PENDING, "sandwich_remove", "below the bar on 3 of 10 seeds")
    with pytest.raises(ValueError, match=r"no scripted expert for 'sandwich_remove' "
                                         r"\(below the bar on 3 of 10 seeds\).*reach_target_dual"):
        expert("sandwich_remove")
    with pytest.raises(ValueError, match="unknown task"):
        expert("sandwich_fly")


@pytest.mark.parametrize("task", sorted(EXPERTS))
def test_expert_succeeds_on_the_first_official_seeds(task):
    """On the embedded default WBC, or on the floating base for an expert that needs
    the height or torso-pitch command (NEEDS_COMMAND gives the measured reason): seeds
    620000 and 620001, or 620000 alone for a long task (LONG_EPISODE)."""
    backend = {"controller": None} if task in NEEDS_COMMAND else {}
    # an oracle reads no images, and rendering changes no physics
    env = make(task, camera_keys=(), **backend)
    policy = expert(task)
    try:
        long_task = DEMO_BUDGETS[task].longest_env_steps > LONG_EPISODE
        for seed in SEEDS[:1] if long_task else SEEDS:
            result = run_episode(env, policy, seed)
            assert result.success, (task, seed, result.termination, result.final_metrics)
            assert not result.fell
    finally:
        env.close()


def test_drafts_are_pending_with_a_reason():
    assert set(DRAFTS) <= set(PENDING)
    with pytest.raises(ValueError, match="no draft expert for 'reach_target_single'"):
        draft("reach_target_single")  # an expert at the bar has no draft


def test_flip_cup_expert_turns_the_cup_over_in_its_jaw():
    """The flip_cup expert holds the cup upside down, then upright in the jaw (it turns
    the cup in the hand, not by tipping it), and lets it go upright: checked on 620002."""
    env = make("flip_cup", camera_keys=(), episode_length=20000)
    policy = expert("flip_cup")
    try:
        observation, _ = env.reset(seed=620002)
        held_down = held_up = False
        done = False
        while not done:
            observation, _, terminated, truncated, _ = env.step(policy(observation))
            feed_world(policy, env_world_state(env, 620002))
            held = env.scene.held("cup")
            opening = env.scene.data.xmat[env.scene.model.body("cup").id].reshape(3, 3)[:, 2]
            held_down |= held and opening[2] < -0.95
            held_up |= held_down and held and opening[2] > 0.9
            done = terminated or truncated
        assert held_down and held_up
        assert env.status.success and not env.episode_fell()
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
