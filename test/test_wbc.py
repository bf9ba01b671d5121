"""Lower-body controller contracts, value by value, with ONNX stand-ins built here."""

from __future__ import annotations

import json

import numpy as np
import pytest
from groot_fakes import BALANCE_BIAS, WALK_BIAS, weights, write_fakes

from bench.robot import constants as c
from bench.wbc import groot, holosoma
from bench.wbc.base import BaseCommand, GoalTimeout, RobotState
from bench.wbc.floating import FloatingBaseController


def _state(seed: int = 0) -> RobotState:
    rng = np.random.default_rng(seed)
    quat = rng.normal(size=4)
    return RobotState(joint_pos=rng.uniform(-0.5, 0.5, 29), joint_vel=rng.uniform(-2, 2, 29),
                      base_pos=np.array([0.1, -0.2, 0.75]), base_quat=quat / np.linalg.norm(quat),
                      base_lin_vel=rng.normal(size=3), base_ang_vel=rng.normal(size=3))


def _gravity(quat: np.ndarray) -> np.ndarray:
    """Gravity in the body frame via an explicit rotation matrix."""
    w, x, y, z = quat
    rot = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
    return rot.T @ np.array([0.0, 0.0, -1.0])


def test_projected_gravity_matches_the_rotation_matrix():
    for seed in range(5):
        state = _state(seed)
        assert np.allclose(state.projected_gravity, _gravity(state.base_quat))


@pytest.fixture(scope="module")
def fake_dir(tmp_path_factory):
    return str(write_fakes(tmp_path_factory.mktemp("groot")))


# ----- GR00T-WBC -----------------------------------------------------------------------

def _expected_frame(state: RobotState, cmd: BaseCommand, prev_action: np.ndarray) -> np.ndarray:
    default = np.array([-0.1, 0, 0, 0.3, -0.2, 0] * 2 + [0] * 17)
    return np.concatenate([
        [cmd.vx * 2, cmd.vy * 2, cmd.wz * 0.5], [cmd.height], [0.0, cmd.torso_pitch, 0.0],
        state.base_ang_vel * 0.5, _gravity(state.base_quat), state.joint_pos - default,
        state.joint_vel * 0.05, prev_action]).astype(np.float32)


def test_groot_observation_history_and_action_mapping(fake_dir):
    controller = groot.GrootController(fake_dir)
    cmd = BaseCommand(vx=0.3, vy=-0.2, wz=0.1, height=0.7, torso_pitch=0.4)
    s1, s2 = _state(1), _state(2)
    out1 = controller.command(s1, cmd, np.zeros(14))
    received = controller.last_input.reshape(6, 86)
    assert controller.last_input.shape == (1, 516)
    assert np.all(received[:5] == 0)  # zero-padded, oldest first
    assert np.allclose(received[5], _expected_frame(s1, cmd, np.zeros(15)), atol=1e-6)

    action1 = received.reshape(-1) @ weights() + WALK_BIAS  # |cmd| >= 0.05: Walk
    default = np.array([-0.1, 0, 0, 0.3, -0.2, 0] * 2 + [0] * 3)
    assert np.allclose(out1.position, 0.25 * action1 + default, atol=1e-5)
    assert out1.kp.tolist() == [150, 150, 150, 200, 40, 40] * 2 + [250] * 3
    assert out1.kd.tolist() == [2, 2, 2, 4, 2, 2] * 2 + [5] * 3

    controller.command(s2, cmd, np.zeros(14))
    received2 = controller.last_input.reshape(6, 86)
    assert np.array_equal(received2[4], received[5])  # history shifts by one frame
    assert np.allclose(received2[5], _expected_frame(s2, cmd, action1), atol=1e-5)


@pytest.mark.parametrize(("velocity", "expected"), [
    ((0.0, 0.0, 0.0), "balance"), ((0.03, 0.0, 0.03), "balance"),
    ((0.05, 0.0, 0.0), "walk"), ((0.0, 0.04, 0.04), "walk"), ((0.0, 0.0, -0.5), "walk")])
def test_groot_switches_balance_and_walk_at_0_05(fake_dir, velocity, expected):
    controller = groot.GrootController(fake_dir)
    cmd = BaseCommand(vx=velocity[0], vy=velocity[1], wz=velocity[2])
    out = controller.command(_state(3), cmd, np.zeros(14))
    bias = BALANCE_BIAS if expected == "balance" else WALK_BIAS
    action = controller.last_input.reshape(-1) @ weights() + bias
    default = np.array([-0.1, 0, 0, 0.3, -0.2, 0] * 2 + [0] * 3)
    assert controller.active == expected
    assert np.allclose(out.position, 0.25 * action + default, atol=1e-5)


def test_groot_missing_files_say_how_to_supply_them(tmp_path, monkeypatch):
    monkeypatch.delenv(groot.ENV_VAR, raising=False)
    with pytest.raises(groot.GrootFilesMissingError, match=r"\$BENCH_GROOT_WBC_DIR"):
        groot.GrootController(None)
    with pytest.raises(groot.GrootFilesMissingError, match=str(tmp_path)):
        groot.GrootController(str(tmp_path))


def test_goal_timeout_counts_sim_time():
    hold = GoalTimeout(1.0)
    walk = BaseCommand(vx=0.4, wz=0.2, height=0.7, torso_pitch=0.3)
    assert hold.update(walk, now=10.0) == walk
    assert hold.update(None, now=10.98) == walk
    stopped = hold.update(None, now=11.02)
    assert (stopped.vx, stopped.vy, stopped.wz) == (0.0, 0.0, 0.0)
    assert (stopped.height, stopped.torso_pitch) == (0.7, 0.3)
    assert hold.update(walk, now=11.5) == walk


# ----- holosoma -----------------------------------------------------------------------

@pytest.mark.parametrize("model", holosoma.MODEL_FILES)
def test_holosoma_gains_and_names_come_from_the_model_metadata(model):
    policies = holosoma.HolosomaPolicies()
    meta = policies.sessions[model].get_modelmeta().custom_metadata_map
    assert json.loads(meta["dof_names"]) == list(c.JOINTS)
    assert np.allclose(policies.kp, np.array(json.loads(meta["kp"])))
    assert np.allclose(policies.kd, np.array(json.loads(meta["kd"])))


@pytest.mark.parametrize("model", holosoma.MODEL_FILES)
def test_holosoma_step_runs_the_named_model(model):
    policies = holosoma.HolosomaPolicies()
    state = _state(3)
    policies.last_action = np.linspace(-1.0, 1.0, 29)
    expected = holosoma.HolosomaPolicies()
    expected.last_action = policies.last_action.copy()
    command = BaseCommand(vx=0.5, wz=-0.2)
    out = policies.step(state, command, model)
    lin, ang = np.array([command.vx, command.vy]), command.wz
    expected._update_phase(lin, ang)
    obs = expected.observation(state, lin, ang)
    session = expected.sessions[model]
    action = session.run(None, {session.get_inputs()[0].name: obs[None]})[0][0]
    assert np.allclose(out, holosoma.DEFAULT_ANGLES[:15] + 0.25 * action[:15])
    other = expected.sessions[next(m for m in holosoma.MODEL_FILES if m != model)]
    other_action = other.run(None, {other.get_inputs()[0].name: obs[None]})[0][0]
    assert not np.allclose(action, other_action)  # the two models really differ here


def test_holosoma_observation_terms_in_sorted_order_with_masked_arms():
    policies = holosoma.HolosomaPolicies()
    state = _state(4)
    policies.last_action = np.linspace(-2.0, 2.0, 29)  # as if after a policy step
    obs = policies.observation(state, np.array([0.2, -0.1]), 0.3)
    assert obs.shape == (100,)
    default = holosoma.DEFAULT_ANGLES
    masked_pos = state.joint_pos.copy()
    masked_pos[15:] = default[15:] + 0.25 * policies.last_action[15:]  # its own arm targets
    masked_vel = state.joint_vel.copy()
    masked_vel[15:] = 0.0
    expected = np.concatenate([
        policies.last_action,                           # actions
        state.base_ang_vel * 0.25,                      # base_ang_vel
        [0.3],                                          # command_ang_vel
        [0.2, -0.1],                                    # command_lin_vel
        np.cos([0.0, np.pi]),                           # cos_phase
        masked_pos - default,                           # dof_pos
        masked_vel * 0.05,                              # dof_vel
        _gravity(state.base_quat),                      # projected_gravity
        np.sin([0.0, np.pi]),                           # sin_phase
    ])
    assert np.allclose(obs, expected, atol=1e-6)


def test_holosoma_gait_phase_holds_while_standing_and_restarts_on_motion():
    policies = holosoma.HolosomaPolicies()
    state = _state(5)
    policies.step(state, BaseCommand(), holosoma.BALANCE_MODEL)
    assert np.allclose(policies.phase, [np.pi, np.pi])
    policies.step(state, BaseCommand(), holosoma.BALANCE_MODEL)
    assert np.allclose(policies.phase, [np.pi, np.pi])
    policies.step(state, BaseCommand(vx=0.5), holosoma.WALK_MODEL)
    assert np.allclose(policies.phase, [0.0, np.pi])  # reset when motion starts
    policies.step(state, BaseCommand(vx=0.5), holosoma.WALK_MODEL)
    step = 2 * np.pi / 50
    assert np.allclose(policies.phase, [step, -np.pi + step])


def test_holosoma_feeds_back_the_clipped_action_and_maps_targets():
    policies = holosoma.HolosomaPolicies()
    state = _state(6)
    out = policies.step(state, BaseCommand(vx=0.2), holosoma.WALK_MODEL)
    assert np.all(np.abs(policies.last_action) <= 100)
    assert np.allclose(out, holosoma.DEFAULT_ANGLES[:15] + 0.25 * policies.last_action[:15])
    obs_next = policies.observation(state, np.array([0.2, 0.0]), 0.0)
    assert np.allclose(obs_next[:29], policies.last_action, atol=1e-6)  # fed back


def test_holosoma_adopts_another_controllers_targets_as_its_last_action():
    policies = holosoma.HolosomaPolicies()
    targets = np.linspace(-0.3, 0.4, 15)
    policies.adopt(targets)
    assert np.allclose(holosoma.DEFAULT_ANGLES[:15] + 0.25 * policies.last_action[:15], targets)
    assert np.all(policies.last_action[15:] == 0.0)  # its own arm history is kept


# ----- floating base ------------------------------------------------------------------

def test_floating_base_integrates_body_frame_commands():
    controller = FloatingBaseController()
    state = _state(8)
    state.base_quat = np.array([np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)])  # yaw 90 deg
    state.base_pos = np.array([1.0, 2.0, 0.7])
    controller.reset(state)
    for _ in range(50):  # 1 s
        out = controller.command(state, BaseCommand(vx=0.3, height=0.7), np.zeros(14))
    assert out.base_pose is not None
    assert np.allclose(out.base_pose[:3], [1.0, 2.3, 0.7], atol=1e-9)  # +x body = +y world
    assert out.base_pose[3] == pytest.approx(np.pi / 2)
    assert np.allclose(out.position[:12], c.KEYFRAME_JOINTS[:12])  # legs frozen
