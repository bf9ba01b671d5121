"""make(task): spaces, official configuration, overrides, violations, determinism."""

from __future__ import annotations

import numpy as np
import pytest
from groot_fakes import write_fakes

from bench.env import make
from bench.protocol import protocol_violations
from bench.robot import constants as c
from bench.tasks import TASKS


@pytest.fixture(scope="module")
def groot_dir(tmp_path_factory):
    return str(write_fakes(tmp_path_factory.mktemp("groot")))


@pytest.fixture(autouse=True)
def _groot_files(groot_dir, monkeypatch):
    """Official envs need the GR00T pair: supply the fakes (same signature)."""
    monkeypatch.setenv("BENCH_GROOT_WBC_DIR", groot_dir)


def _assert_obs_in_space(env, obs):
    assert env.observation_space.contains(obs)
    assert np.all(np.isfinite(obs["low_dim"]))


@pytest.mark.parametrize("task", sorted(TASKS))
def test_every_task_builds_steps_and_is_deterministic(task):
    env = make(task, controller={"reset_warmup_steps": 5})
    try:
        assert env.action_space.shape == (TASKS[task].action_dim,)
        assert env.config.episode_length == TASKS[task].episode_length
        obs, _ = env.reset(seed=620000)
        _assert_obs_in_space(env, obs)
        rng = np.random.default_rng(0)
        actions = rng.uniform(-0.3, 0.3, (3, env.action_dim))
        trajectory = [env.step(a)[0]["low_dim"] for a in actions]
        for low_dim in trajectory:
            assert np.all(np.isfinite(low_dim))
        again, _ = env.reset(seed=620000)
        assert np.array_equal(again["low_dim"], obs["low_dim"])
        assert np.array_equal(again["rgb_obs"], obs["rgb_obs"])
        replay = [env.step(a)[0]["low_dim"] for a in actions]
        assert all(np.array_equal(x, y) for x, y in zip(trajectory, replay, strict=True))
    finally:
        env.close()


@pytest.mark.parametrize("task", sorted(TASKS))
def test_official_env_has_no_violations(task):
    env = make(task)
    try:
        assert env.config_overrides == []
        assert protocol_violations(env) == []
        assert env.backend.name == "groot_wbc_g1"
    finally:
        env.close()


def test_violations_list_exactly_the_changed_non_official_fields():
    env = make("pick_box", controller={"cmd_clip": 0.5}, frame_stack=2,
               camera_shape=(64, 64), render_mode="rgb_array")
    try:
        assert env.config_overrides == ["camera_shape", "controller.cmd_clip", "frame_stack",
                                        "render_mode"]
        assert protocol_violations(env) == ["camera_shape", "controller.cmd_clip"]
        assert env.wholebody_action_layout()[0]["high"] == 0.5
    finally:
        env.close()


def test_missing_groot_files_fall_back_to_holosoma_loudly(monkeypatch):
    monkeypatch.delenv("BENCH_GROOT_WBC_DIR")
    env = make("flip_cup", controller={"reset_warmup_steps": 2})
    try:
        assert env.backend.name == "holosoma_g1"
        assert "EMBEDDED DEFAULT" in env.backend.substitution
        violations = protocol_violations(env)
        assert violations[0] == "controller.reset_warmup_steps"
        assert violations[1].startswith("controller.backend: groot_wbc_g1 requested")
        assert violations[2] == ("holosoma_g1 stands at its own posture (pelvis about "
                                 "0.76 m, not 0.74 m) for the default stance command")
        assert violations[3] == (
            "holosoma_g1 tracks the height command within 0.45-0.79 m of the official "
            "0.4-1.0 m, while standing only (walking keeps holosoma's own posture)")
        assert violations[4] == ("holosoma_g1 tracks the torso_pitch command while standing "
                                 "only (walking keeps holosoma's own posture)")
        _, info = env.reset(seed=1)
        assert info["backend_substitution"] == env.backend.substitution
    finally:
        env.close()


def test_bad_actions_get_precise_errors():
    env = make("move_plate", controller={"reset_warmup_steps": 1})
    try:
        env.reset(seed=3)
        with pytest.raises(ValueError, match=r"shape \(21,\); move_plate takes 20"):
            env.step(np.zeros(21))
        action = np.zeros(20)
        action[[2, 19]] = np.nan
        with pytest.raises(ValueError, match=r"slots \[2, 19\] \(\['height', 'right_gripper'\]\)"):
            env.step(action)
    finally:
        env.close()


def test_official_overrides_change_only_what_the_policy_sees():
    env = make("flip_cup", frame_stack=3, normalize_low_dim_obs=True,
               event_progress_enabled=True, render_mode="rgb_array",
               controller={"reset_warmup_steps": 2})
    try:
        obs, _ = env.reset(seed=5)
        assert obs["low_dim"].shape == (3, 56) and obs["rgb_obs"].shape == (3, 3, 3, 84, 84)
        plain = make("flip_cup", controller={"reset_warmup_steps": 2})
        raw = plain.reset(seed=5)[0]["low_dim"]
        plain.close()
        low, high = env._low_dim_scale
        assert np.allclose(obs["low_dim"][-1], 2 * (raw - low) / (high - low) - 1, atol=1e-5)
        assert np.abs(obs["low_dim"]).max() < 1.1  # bounds cover the standing robot
        assert obs["event_progress"].shape == (1,)
        frame = env.render()
        assert frame.shape == (256, 256, 3) and frame.std() > 5
        obs2, *_ = env.step(np.zeros(21))
        assert np.array_equal(obs2["low_dim"][:2], obs["low_dim"][1:])  # frames shift
    finally:
        env.close()


def test_delta_actions_move_the_arm_targets_by_the_scale():
    env = make("move_plate", action_representation="delta", upper_delta_scale_rad=0.05,
               controller={"reset_warmup_steps": 1})
    try:
        env.reset(seed=0)
        before = env.arm_targets.copy()
        action = np.zeros(20)
        action[4] = 1.0  # left shoulder pitch +1 -> +0.05 rad
        action[11] = -0.5  # right shoulder pitch -0.5 -> -0.025 rad
        env.step(action)
        change = env.arm_targets - before
        assert change[0] == pytest.approx(0.05) and change[7] == pytest.approx(-0.025)
        assert np.allclose(np.delete(change, [0, 7]), 0.0)
    finally:
        env.close()


def test_reset_warms_up_under_the_wbc_and_records_the_settled_pelvis(monkeypatch):
    monkeypatch.delenv("BENCH_GROOT_WBC_DIR")  # the embedded default can stand
    env = make("flip_cup", camera_keys=())
    try:
        assert env.config.controller.reset_warmup_steps == 200
        obs, info = env.reset(seed=2)
        state = env.world.robot_state()
        assert env.world.data.time == pytest.approx(200 * 0.02)
        assert info["control_step"] == 0
        assert np.allclose(env.settled_pelvis[:3], state.base_pos)
        assert 0.65 < env.settled_pelvis[2] < 0.85 and not env.episode_fell()
        assert np.allclose(env.arm_targets, c.KEYFRAME_JOINTS[15:])
        base = env.low_dim_component_slices()["proprioception_floating_base"]
        assert np.allclose(obs["low_dim"][base[0]:base[1]], env.settled_pelvis, atol=1e-6)
    finally:
        env.close()


def test_episode_hooks_and_budget():
    env = make("reach_target_single", controller={"reset_warmup_steps": 1}, episode_length=30)
    try:
        env.reset(seed=0)
        truncated = False
        steps = 0
        while not truncated:
            _, _, terminated, truncated, _ = env.step(np.zeros(20))
            steps += 1
            assert not terminated
        assert steps == 3  # 30 env steps = 3 control steps
        assert env.episode_termination() in ("timeout", "fell")
        assert env.episode_succeeded() is False
    finally:
        env.close()
