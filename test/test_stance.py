"""The embedded default's standing controller and its Balance/Walk pair, in physics on
the bare robot, plus the pieces of its IK that can be checked by hand."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from bench.falls import is_fallen
from bench.robot import constants as c
from bench.sim.world import G1World
from bench.wbc import BaseCommand
from bench.wbc.embedded import BALANCE_MIN_STEPS, EmbeddedController, Mode
from bench.wbc.stance import (
    PARAMS,
    StanceController,
    StanceGoal,
    clip_goal,
    orientation_error,
    rotation_angles,
    torso_angles,
    torso_rotation,
)

ARMS_KEYFRAME = c.KEYFRAME_JOINTS[15:].copy()
# Both hands forward at chest height, elbows slightly bent.
ARMS_FORWARD = np.array([-0.7, 0.15, 0.0, 0.5, 0.0, 0.0, 0.0,
                         -0.7, -0.15, 0.0, 0.5, 0.0, 0.0, 0.0])


class Bench:
    """The bare G1 in MuJoCo, driven by the embedded default; records falls."""

    def __init__(self) -> None:
        self.world = G1World()
        self.world.reset_to_keyframe()
        self.controller = EmbeddedController()
        self.fell = False
        self.modes: list[Mode] = []

    def run(self, steps: int, command: BaseCommand, arms: np.ndarray = ARMS_KEYFRAME,
            push: np.ndarray | None = None, push_steps: int = 0) -> None:
        """``steps`` control steps of ``command``; ``push`` (N, world frame) acts on the
        pelvis for the first ``push_steps``."""
        world = self.world
        for k in range(steps):
            world.data.xfrc_applied[1, :3] = push if push is not None and k < push_steps else 0.0
            lower = self.controller.command(world.robot_state(), command, arms)
            world.step(np.concatenate([lower.position, arms]),
                       np.concatenate([lower.kp, c.ARM_KP, c.ARM_KP]),
                       np.concatenate([lower.kd, c.ARM_KD, c.ARM_KD]), np.zeros(2))
            self.modes.append(self.controller.mode)
            self.fell |= is_fallen(world.data.qpos[:3], world.data.qpos[3:7])

    @property
    def height(self) -> float:
        """Pelvis height (m); the floor is at 0."""
        return float(self.world.data.qpos[2])

    @property
    def pitch(self) -> float:
        """Torso pitch (rad) in the world."""
        return torso_angles(self.world.model, self.world.data)[0]


# ----- pieces ------------------------------------------------------------------------

def test_orientation_error_is_the_rotation_vector_for_small_angles():
    goal = torso_rotation(StanceGoal(pitch=0.03, roll=-0.02, yaw=0.01))
    error = orientation_error(np.eye(3), goal)
    assert np.allclose(error, [-0.02, 0.03, 0.01], atol=1e-3)
    assert np.allclose(orientation_error(goal, goal), 0.0)


@pytest.mark.parametrize(("pitch", "roll", "yaw"), [(0.5, 0.0, 0.0), (0.3, -0.2, 0.4),
                                                     (-0.2, 0.1, -0.5)])
def test_rotation_angles_read_back_the_goal_rotation(pitch, roll, yaw):
    rotation = torso_rotation(StanceGoal(pitch=pitch, roll=roll, yaw=yaw))
    assert np.allclose(rotation_angles(rotation), (pitch, roll, yaw), atol=1e-12)
    # + pitch leans forward: the torso's up axis tilts toward +x of its heading
    assert (rotation @ [0, 0, 1]) @ [np.cos(yaw), np.sin(yaw), 0] == pytest.approx(
        np.sin(pitch) * np.cos(roll), abs=1e-12)


def test_goals_are_clipped_to_what_the_legs_reach():
    clipped = clip_goal(StanceGoal(height=1.0, pitch=1.2, roll=-0.9, yaw=2.0))
    assert clipped == StanceGoal(c.STANCE_HEIGHT_RANGE[1], c.STANCE_PITCH_RANGE[1],
                                 c.STANCE_ROLL_RANGE[0], c.STANCE_YAW_RANGE[1])
    assert clip_goal(StanceGoal(height=0.3)).height == c.STANCE_HEIGHT_RANGE[0]


def test_the_stance_reads_no_base_position_or_heading():
    """Joint angles and the IMU's tilt and rates are all it uses: the same posture at
    another place and heading gives the same targets (as on the real robot)."""
    world = G1World()
    world.reset_to_keyframe()
    state = world.robot_state()
    moved = dataclasses.replace(state, base_pos=np.array([3.0, -2.0, 0.2]),
                                base_quat=np.array([np.cos(0.6), 0.0, 0.0, np.sin(0.6)]),
                                base_lin_vel=np.array([1.0, 2.0, 3.0]))
    outputs = []
    for s in (state, moved):
        stance = StanceController()
        stance.engage(s, ARMS_FORWARD)
        outputs.append(stance.command(s, StanceGoal(0.6, 0.3), ARMS_FORWARD)[0])
    assert np.allclose(outputs[0], outputs[1], atol=1e-9)


def test_an_engaged_stance_does_not_remember_the_last_one():
    """Engaging starts from the measured posture alone: after a stance driven elsewhere
    (another episode, another crouch), the same posture and command give the same
    targets as from a fresh controller, so an episode does not depend on the ones
    before it in the process."""
    world = G1World()
    world.reset_to_keyframe()
    state = world.robot_state()
    fresh = StanceController()
    fresh.engage(state, ARMS_KEYFRAME)
    expected = fresh.command(state, StanceGoal(0.6, 0.3), ARMS_KEYFRAME)[0]
    used = StanceController()
    used.engage(state, ARMS_FORWARD)
    for _ in range(30):
        used.command(state, StanceGoal(0.5, 0.6), ARMS_FORWARD)
    used.engage(state, ARMS_KEYFRAME)
    np.testing.assert_array_equal(used.command(state, StanceGoal(0.6, 0.3), ARMS_KEYFRAME)[0],
                                  expected)


def test_the_legs_plan_for_the_arms():
    """Arms reaching forward move the centre of mass ahead: the planned hips go back."""
    world = G1World()
    world.reset_to_keyframe()
    state = world.robot_state()
    plans = []
    for arms in (ARMS_KEYFRAME, ARMS_FORWARD):
        stance = StanceController()
        stance.engage(state, arms)
        for _ in range(20):
            stance.command(state, StanceGoal(0.7, 0.0), arms)
        plans.append(stance.q.copy())
    assert plans[1][0] < plans[0][0] - 0.005  # pelvis x in the stance frame, m


def test_the_torso_leans_only_as_far_as_the_motors_hold():
    """Arms raised far forward and a full lean asked for: the goal stops leaning where
    the planned holding torque reaches effort_hold of a joint's limit (the waist
    pitch's); without the limit it leans all the way, at a torque near the limit."""
    world = G1World()
    world.reset_to_keyframe()
    state = world.robot_state()
    arms = ARMS_FORWARD.copy()
    arms[[0, 7]] = -1.4  # shoulder pitch: hands well ahead
    results = []
    for params in (PARAMS, dataclasses.replace(PARAMS, effort_hold=9.0, effort_retreat=9.0)):
        stance = StanceController(params)
        stance.engage(state, arms)
        for _ in range(150):
            stance.command(state, StanceGoal(0.6, 0.8), arms)
        results.append((stance.goal.pitch, stance.effort))
    (held_pitch, held_effort), (free_pitch, free_effort) = results
    assert free_pitch == pytest.approx(0.8) and free_effort > PARAMS.effort_retreat
    assert held_pitch < 0.6 and held_effort < PARAMS.effort_retreat


@pytest.mark.parametrize("height", [0.74, 0.55])
def test_a_sideways_balance_force_shifts_load_between_the_feet_not_onto_the_ankles(height):
    """The balance force on the centre of mass goes through the feed-forward's wrench
    distribution: sideways it becomes hip and knee torque (load moved from foot to
    foot), with next to no ankle-roll torque, which would roll a sole off its edge;
    forward it needs ankle pitch torque (the feet stand side by side)."""
    world = G1World()
    world.reset_to_keyframe()
    state = world.robot_state()
    stance = StanceController()
    stance.engage(state, ARMS_KEYFRAME)
    for _ in range(100):
        stance.command(state, StanceGoal(height, 0.0), ARMS_KEYFRAME)
    still, sideways, forward = stance._feedforward(
        np.zeros(3), np.array([0.0, 50.0, 0.0]), np.array([50.0, 0.0, 0.0]))
    sideways, forward = sideways - still, forward - still
    ankle_roll = [c.joint_index(f"{s}_ankle_roll_joint") for s in ("left", "right")]
    ankle_pitch = [c.joint_index(f"{s}_ankle_pitch_joint") for s in ("left", "right")]
    legs = [c.joint_index(f"{s}_{j}_joint") for s in ("left", "right")
            for j in ("hip_pitch", "hip_roll", "knee")]
    assert np.abs(sideways[ankle_roll]).max() < 0.1 * np.abs(sideways[legs]).max()
    assert np.abs(sideways[legs]).max() > 2.0  # N m
    assert np.all(np.abs(forward[ankle_pitch]) > 5.0)  # N m, each foot's share of 50 N x h
# ----- physics -----------------------------------------------------------------------

@pytest.mark.parametrize(("height", "pitch", "arms"), [
    (0.72, 0.0, ARMS_KEYFRAME),
    (0.55, 0.0, ARMS_KEYFRAME),
    (0.70, 0.6, ARMS_KEYFRAME),
    (0.60, 0.3, ARMS_FORWARD),
])
def test_standing_tracks_height_and_torso_pitch(height, pitch, arms):
    """From the reset, the arms at the keyframe for 1 s (an env's warmup keeps them
    there too), then at ``arms``."""
    bench = Bench()
    bench.run(50, BaseCommand(height=height, torso_pitch=pitch))
    bench.run(150, BaseCommand(height=height, torso_pitch=pitch), arms)
    assert not bench.fell
    assert bench.height == pytest.approx(height, abs=0.02)
    assert bench.pitch == pytest.approx(pitch, abs=0.05)
    # ppo from the reset until the body is still, then the stance for good
    engaged = bench.modes.index(Mode.STAND)
    assert BALANCE_MIN_STEPS <= engaged <= 30
    assert set(bench.modes[:engaged]) == {Mode.BALANCE}
    assert set(bench.modes[engaged:]) == {Mode.STAND}


def test_the_default_stance_stays_on_the_balance_policy_and_returns_to_it():
    bench = Bench()
    bench.run(60, BaseCommand())
    assert set(bench.modes) == {Mode.BALANCE}
    assert bench.height == pytest.approx(0.764, abs=0.01)  # holosoma's own posture
    bench.run(100, BaseCommand(height=0.6))
    assert bench.modes[-1] is Mode.STAND
    bench.run(100, BaseCommand())
    assert bench.modes[-1] is Mode.BALANCE and not bench.fell


def test_walks_away_from_a_crouch_and_returns_to_it():
    crouch = BaseCommand(height=0.6, torso_pitch=0.3)
    bench = Bench()
    bench.run(100, crouch)
    start = bench.world.data.qpos[0]
    bench.run(150, dataclasses.replace(crouch, vx=0.3))
    assert Mode.WALK in bench.modes
    assert bench.world.data.qpos[0] - start > 0.2  # m walked forward
    bench.run(400, crouch)  # settling may take a step in place first
    assert bench.modes[-1] is Mode.STAND
    assert not bench.fell
    assert bench.height == pytest.approx(0.6, abs=0.02)
    assert bench.pitch == pytest.approx(0.3, abs=0.05)


def test_a_push_off_the_soles_is_caught_by_a_step_and_the_stance_resumes():
    bench = Bench()
    bench.run(100, BaseCommand(height=0.7))
    assert bench.modes[-1] is Mode.STAND
    bench.modes.clear()
    bench.run(300, BaseCommand(height=0.7), push=np.array([0.0, 100.0, 0.0]), push_steps=10)
    assert Mode.BALANCE in bench.modes  # the stance alone could not have held it
    assert bench.modes[-1] is Mode.STAND
    assert not bench.fell
    assert bench.height == pytest.approx(0.7, abs=0.02)
