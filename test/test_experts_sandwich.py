"""The sandwich_remove expert (bench/policies/experts/sandwich.py): its registration, its
blade geometry and pose readings (and the sandwich's tilt), the levelling of the loaded
blade, and the reach from its stance that the script relies on (the take, the scoop,
the board)."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

from bench.env import make
from bench.policies import experts
from bench.policies.experts import sandwich
from bench.policies.experts.kinematics import rot_x
from bench.policies.experts.sandwich import (
    BOARD_DROP,
    BOARD_SPOT,
    CARRY_HEADING,
    CARRY_PITCH,
    ENTRY,
    ENTRY_PITCH,
    GRIP_ABOVE,
    GRIP_AT,
    HEADING,
    IK_ERROR,
    JAW_ROLL,
    LEFT_RAISED,
    LIFT,
    LOADED,
    PITCH_GAIN,
    PITCH_LIMIT,
    REGRIP_AT,
    RIM_CLEARANCE,
    STANCE,
    TAKE_REACH,
    TIP,
    TIP_ROLL,
    TURN_GAIN,
    TURN_LIMIT,
    WALL_GAP,
    SandwichRemove,
    spatula_rotation,
    up,
    wrapped,
)
from bench.policies.experts.script import KEYFRAME_ARMS
from bench.tasks import kitchen_scene as ks

REACHED = 0.005  # m (and weighted rad), inverse-kinematics error counted as reached
TASK = "sandwich_remove"


def test_sandwich_remove_is_registered_as_an_expert() -> None:
    assert sandwich.EXPERTS[TASK] is SandwichRemove and experts.EXPERTS[TASK] is SandwichRemove
    assert TASK not in experts.PENDING and TASK not in experts.DRAFTS
    assert TASK not in experts.NEEDS_COMMAND  # it runs on the embedded default
    assert isinstance(experts.expert(TASK), SandwichRemove)


def test_wrapped_is_the_shortest_turn() -> None:
    assert np.isclose(wrapped(0.3), 0.3)
    assert np.isclose(wrapped(np.radians(350)), np.radians(-10))
    assert np.isclose(wrapped(np.radians(-200)), np.radians(160))


def test_spatula_rotation_points_the_blade_down_along_the_heading() -> None:
    rot = spatula_rotation(np.radians(30), np.radians(20))
    assert np.allclose(rot @ rot.T, np.eye(3))
    x = rot[:, 0]
    assert np.isclose(np.degrees(np.arcsin(-x[2])), 20.0)
    assert np.isclose(np.degrees(np.arctan2(x[1], x[0])), 30.0)
    assert np.isclose(rot[2, 1], 0.0)  # the blade's width stays level


@pytest.fixture(scope="module")
def at_stance() -> SandwichRemove:
    """The draft's kinematics set from seed 620000's reset with the pelvis at STANCE."""
    env = make(TASK, camera_keys=())
    env.reset(seed=620000)
    expert = SandwichRemove(TASK)
    qpos = env.world.data.qpos.copy()
    base = expert.kin.model.joint("floating_base_joint").qposadr[0]
    qpos[base:base + 2] = STANCE
    qpos[base + 3:base + 7] = [1.0, 0.0, 0.0, 0.0]
    expert.kin.set_state(qpos)
    env.close()
    return expert


def test_handle_grasp_straddles_the_handle(at_stance: SandwichRemove) -> None:
    pos, rot = at_stance.handle_grasp()
    axis = at_stance.geom_pos("spatula_handle")
    spatula_x = at_stance.kin.body_rot("spatula")[:, 0]
    offset = pos - axis
    assert np.isclose(offset[2], GRIP_ABOVE)
    assert np.isclose(offset @ spatula_x, GRIP_AT + 0.10, atol=1e-3)  # from its centre
    heading = np.arctan2(spatula_x[1], spatula_x[0])
    pointing = np.arctan2(rot[1, 0], rot[0, 0])
    assert np.isclose(pointing, min(heading, 0.0))  # never turned toward the board
    assert abs(rot[2, 1]) < 1e-9  # the jaw is horizontal


@pytest.mark.parametrize("seed", [620000, 620001])
def test_side_grip_is_reached_clear_of_the_handle(seed: int) -> None:
    """From the take's stance the hand reaches the side grip with its housing clear of
    the handle's end (GRIP_AT; nearer the blade the housing sat on the handle and held
    the jaw 2.5-3.7 cm high), and the closed jaw's pinch site there counts as holding
    the handle. 620001's spatula lies 1.17 m out, turned 15 degrees toward the board;
    there the right finger still overlaps the board's edge by about 1.3 cm at this
    pose (no grasp point or hand heading cleared it), and the take needs a retry."""
    env = make(TASK, camera_keys=())
    env.reset(seed=seed)
    expert = SandwichRemove(TASK)
    qpos = env.world.data.qpos.copy()
    env.close()
    expert.kin.set_state(qpos)
    pos, rot = expert.handle_grasp()
    base = expert.kin.model.joint("floating_base_joint").qposadr[0]
    qpos[base:base + 2] = max(STANCE[0], pos[0] - TAKE_REACH), STANCE[1]
    qpos[base + 3:base + 7] = [1.0, 0.0, 0.0, 0.0]
    expert.kin.set_state(qpos)
    q, error = expert.kin.solve("right", pos, rot, KEYFRAME_ARMS["right"], iterations=300)
    assert error < REACHED
    assert expert.kin.distance("right", q, "spatula") > 0.005
    expert.kin.data.qpos[expert.kin.qpos_adr["right"]] = q
    mujoco.mj_forward(expert.kin.model, expert.kin.data)
    assert expert.handle_in_jaw()


def test_right_hand_reaches_grasp_and_scoop_from_the_stance(at_stance: SandwichRemove) -> None:
    """From STANCE the right hand reaches the handle grasp and, holding the spatula with
    the upright jaw of the regrasp, the blade poses of the way in and of the scoop's end
    (each solved on from the previous one's arm, as the arm tracks)."""
    expert = at_stance
    q0 = expert.arm["right"]
    pos, rot = expert.handle_grasp()
    assert expert.kin.solve("right", pos, rot, q0, iterations=200)[1] < REACHED
    centre = expert.kin.body_pos("sandwich")
    floor = expert.pan_floor()
    ahead = np.array([np.cos(HEADING), np.sin(HEADING), 0.0])
    start = np.array([*(centre - ENTRY * ahead)[:2], floor])
    end = np.array([*expert.far_wall(centre, ahead)[:2], floor])
    # the regrasp's joint-space move to the hanging arm starts the chain
    errors = chain_errors(expert, KEYFRAME_ARMS["right"],
                          [(start + up(LIFT), ENTRY_PITCH), (start, ENTRY_PITCH),
                           (end, np.radians(10)), (end + up(LIFT), 0.0)])
    assert max(errors) < REACHED, errors
    assert np.allclose(TIP, [0.11, 0.0, 0.004])  # the bevelled edge, on the top face


def test_left_hand_is_raised_above_the_counter_and_short_of_its_front(
        at_stance: SandwichRemove) -> None:
    """From STANCE the left hand reaches LEFT_RAISED, above the counter's top and short
    of its front, from where it swings out to the pan."""
    point = at_stance.ahead(*LEFT_RAISED)
    assert at_stance.kin.solve("left", point, None, at_stance.arm["left"],
                               iterations=200)[1] < REACHED
    assert point[2] > ks.COUNTER_TOP + 0.1
    assert point[0] < ks.KITCHEN_X - 0.1


def test_scoop_ends_before_the_far_wall(at_stance: SandwichRemove) -> None:
    """The scoop's end lies on the line through the sandwich's centre, WALL_GAP inside
    the pan wall's inner face."""
    centre = at_stance.kin.body_pos("sandwich")
    ahead = np.array([np.cos(HEADING), np.sin(HEADING), 0.0])
    end = at_stance.far_wall(centre, ahead)
    pan = at_stance.kin.body_pos("pan")
    inner = 0.12 - 0.004  # ks.PAN_RADIUS less half a wall slab
    assert np.isclose(np.linalg.norm((end - pan)[:2]), inner - WALL_GAP)
    along = (end - centre) @ ahead
    assert along > 0.0 and np.allclose(end - centre, along * ahead)


SHOULDER_TURNED_BACK = np.array([1.06, -2.2, -1.56, -0.44, 0.5, 0.6, 0.66])  # rad, the
# right arm at the entry on seed 620001 before scoop_arm: shoulder turned back, rolled to
# its limit


def chain_errors(expert: SandwichRemove, q: np.ndarray,
                 ways: list[tuple[np.ndarray, float]]) -> list[float]:
    """The inverse-kinematics error at each of ``ways`` (upright grip), solved on from
    ``q`` pose after pose as the arm tracks."""
    upright = np.array([REGRIP_AT, 0.0, 0.011]), rot_x(JAW_ROLL)
    errors = []
    for tip, pitch in ways:
        target = expert.blade(upright, tip, HEADING, pitch)["right"]
        for _ in range(3):
            q, error = expert.kin.solve("right", *target, q, iterations=200)
        errors.append(error)
    return errors


def test_scoop_arm_takes_the_branch_that_reaches_the_whole_scoop(
        at_stance: SandwichRemove) -> None:
    """From an arm turned back at the shoulder, the scoop's poses solved on from it fall
    short; scoop_arm's angles for the first pose start a chain that reaches them all."""
    expert = at_stance
    start, end, ahead = expert.scoop_line()
    centre = expert.kin.body_pos("sandwich")
    assert np.allclose(start[:2], (centre - ENTRY * ahead)[:2])
    assert np.isclose(start[2], expert.pan_floor())
    assert np.allclose(end, [*expert.far_wall(centre, ahead)[:2], start[2]])
    ways = expert.scoop_ways(start, end, ahead)
    assert np.allclose(ways[2][0], start) and np.allclose(ways[-1][0], end)
    assert max(chain_errors(expert, SHOULDER_TURNED_BACK, ways)) > IK_ERROR
    upright = np.array([REGRIP_AT, 0.0, 0.011]), rot_x(JAW_ROLL)
    saved = expert.arm["right"].copy()
    expert.arm["right"] = SHOULDER_TURNED_BACK.copy()
    try:
        q = expert.scoop_arm(upright, ways)
    finally:
        expert.arm["right"] = saved
    assert max(chain_errors(expert, q, ways)) < REACHED


def test_blade_joints_rebranch_solves_a_goal_out_of_reach_from_the_hanging_arm(
        at_stance: SandwichRemove, monkeypatch: pytest.MonkeyPatch) -> None:
    """From the arm turned back at the shoulder, the scoop's end (upright grip) is out of
    reach; with ``rebranch`` blade_joints solves it again from KEYFRAME_ARMS and ends
    there, without it the arm stays short."""
    expert = at_stance
    upright = np.array([REGRIP_AT, 0.0, 0.011]), rot_x(JAW_ROLL)
    monkeypatch.setattr(expert, "grip_transform", lambda: upright)
    end = expert.scoop_line()[1]
    target = expert.blade(upright, end, HEADING, 0.3)["right"]
    assert expert.kin.solve("right", *target, SHOULDER_TURNED_BACK, iterations=200)[1] > IK_ERROR
    try:
        for rebranch in (False, True):
            expert.arm["right"] = SHOULDER_TURNED_BACK.copy()
            for _ in expert.blade_joints(end, HEADING, 0.3, 0.0, 200, rebranch=rebranch):
                pass
            error = expert.kin.solve("right", *target, expert.arm["right"], iterations=1)[1]
            assert error < REACHED if rebranch else error > IK_ERROR
    finally:
        expert.reset()


def test_kept_above_lifts_a_blade_below_the_floor_and_keeps_one_above(
        at_stance: SandwichRemove, monkeypatch: pytest.MonkeyPatch) -> None:
    """The carry's fallback to another branch keeps the blade's tip at least at the floor
    it is given (on 620006 the interpolated angles dipped the loaded blade onto the
    counter): angles that put the tip 5 cm under the floor are raised to it
    with the hand's orientation kept, angles above it are left alone, and a floor out of
    reach leaves them alone too."""
    expert = at_stance
    upright = np.array([REGRIP_AT, 0.0, 0.011]), rot_x(JAW_ROLL)
    monkeypatch.setattr(expert, "grip_transform", lambda: upright)
    board = expert.kin.body_pos("board")
    tip = board + np.array([*BOARD_SPOT, ks.BOARD_HALF[2] + BOARD_DROP])
    low, error = expert.kin.solve(
        "right", *expert.blade(upright, tip, CARRY_HEADING, 0.0)["right"],
        KEYFRAME_ARMS["right"], iterations=300)
    assert error < REACHED

    def blade_tip(arm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        pos, rot = expert.kin.pinch_at("right", arm)
        return pos + rot @ upright[1].T @ (TIP - upright[0]), rot

    raised = expert.kept_above(low, tip[2] + 0.05)
    (raised_tip, raised_rot), (low_tip, low_rot) = blade_tip(raised), blade_tip(low)
    assert abs(raised_tip[2] - (tip[2] + 0.05)) < REACHED
    assert np.linalg.norm(raised_tip[:2] - low_tip[:2]) < REACHED
    assert np.allclose(raised_rot, low_rot, atol=0.01)
    assert np.array_equal(expert.kept_above(low, tip[2] - 0.05), low)
    assert np.array_equal(expert.kept_above(low, tip[2] + 1.0), low)


def posed_spatula(expert: SandwichRemove, tip: np.ndarray, rot: np.ndarray) -> np.ndarray:
    """Set the spatula in the expert's kinematics so that its blade tip is at ``tip`` with
    orientation ``rot``; returns the previous qpos (to restore)."""
    kin = expert.kin
    saved = kin.data.qpos.copy()
    qpos = saved.copy()
    adr = kin.model.jnt_qposadr[kin.model.body("spatula").jntadr[0]]
    quat = np.zeros(4)
    mujoco.mju_mat2Quat(quat, rot.flatten())
    qpos[adr:adr + 3] = tip - rot @ TIP
    qpos[adr + 3:adr + 7] = quat
    kin.set_state(qpos)
    return saved


def test_blade_heading_pitch_and_roll_read_back(at_stance: SandwichRemove) -> None:
    heading, pitch, roll = np.radians(-20), np.radians(12), np.radians(-75)
    rot = spatula_rotation(heading, pitch) @ rot_x(roll)
    saved = posed_spatula(at_stance, np.array([1.0, -0.4, 0.95]), rot)
    try:
        assert np.isclose(at_stance.blade_heading(), heading)
        assert np.isclose(at_stance.blade_pitch(), pitch)
        assert np.isclose(at_stance.blade_roll(), roll)
        assert np.allclose(at_stance.blade_tip(), [1.0, -0.4, 0.95])
    finally:
        at_stance.kin.set_state(saved)


@pytest.mark.parametrize("axis", ["pitch", "heading"])
def test_blade_path_servo_corrects_a_blade_off_its_path(at_stance: SandwichRemove,
                                                        axis: str) -> None:
    """A blade held 5 degrees steeper than the path asks (the wrist's sag), or turned 8
    degrees left of its heading (the spatula turned in the jaw): with ``servo`` the
    commanded pitch (``tilt``) or heading (``turn``) is corrected by its gain of the
    error a step, the other way, up to its limit, the other correction stays 0, and the
    hand's target carries the correction."""
    heading, pitch = HEADING, np.radians(20)
    off, gain, limit = ((np.radians(5), PITCH_GAIN, PITCH_LIMIT) if axis == "pitch"
                        else (np.radians(8), TURN_GAIN, TURN_LIMIT))
    pitched, turned = (off, 0.0) if axis == "pitch" else (0.0, off)
    tip = at_stance.kin.body_pos("sandwich") - up(0.01)
    saved = posed_spatula(at_stance, tip, spatula_rotation(heading + turned, pitch + pitched))

    def corrections() -> tuple[float, float]:  # (the one servoed, the other)
        return ((at_stance.tilt, at_stance.turn) if axis == "pitch"
                else (at_stance.turn, at_stance.tilt))

    try:
        at_stance.reset()
        grip = at_stance.grip_transform()
        for _ in at_stance.blade_path(grip, lambda _: (tip, heading, pitch), 10, servo=True):
            pass
        servoed, other = corrections()
        assert np.isclose(servoed, -10 * gain * off) and abs(other) < 1e-6
        # the last step's target was set before that step's correction
        last = -9 * gain  # of the offset, on its axis
        target = at_stance.blade(grip, tip, heading + last * turned,
                                 pitch + last * pitched)["right"]
        assert np.allclose(at_stance.hand["right"][0], target[0])
        assert np.allclose(at_stance.hand["right"][1], target[1])
        for _ in at_stance.blade_path(grip, lambda _: (tip, heading, pitch), 200, servo=True):
            pass
        assert np.isclose(corrections()[0], -limit)
    finally:
        at_stance.kin.set_state(saved)
        at_stance.reset()


def move_sandwich(expert: SandwichRemove, shift: tuple[float, float, float] = (0.0, 0.0, 0.0),
                  rot: np.ndarray | None = None) -> None:
    """Move the sandwich by ``shift`` (m, world) and, given ``rot``, set its orientation,
    in the expert's kinematics (the world state)."""
    kin = expert.kin
    qpos = kin.data.qpos.copy()
    adr = kin.model.jnt_qposadr[kin.model.body("sandwich").jntadr[0]]
    qpos[adr:adr + 3] += shift
    if rot is not None:
        mujoco.mju_mat2Quat(qpos[adr + 3:adr + 7], rot.flatten())
    kin.set_state(qpos)


@pytest.mark.parametrize(("shift", "loaded", "in_pan"), [
    ((0.0, 0.0, 0.0), False, True),  # as reset: on the pan's floor
    ((0.0, 0.0, LOADED / 2), False, True),  # barely stirred
    ((0.0, 0.0, LOADED + 0.01), True, True),  # leaning on the risen blade
    ((0.0, -ks.PAN_RADIUS - 0.02, 0.0), False, False),  # pushed over the rim
])
def test_loaded_and_in_pan_read_the_scoops_outcome(
        at_stance: SandwichRemove, shift: tuple[float, float, float], loaded: bool,
        in_pan: bool) -> None:
    saved = at_stance.kin.data.qpos.copy()
    try:
        move_sandwich(at_stance, shift)
        assert at_stance.loaded() is loaded
        assert at_stance.sandwich_in_pan() is in_pan
    finally:
        at_stance.kin.set_state(saved)


def test_take_stance_keeps_the_grasp_point_within_take_reach(at_stance: SandwichRemove) -> None:
    stance = at_stance.take_stance()
    grasp = at_stance.handle_grasp()[0]
    assert stance[0] >= STANCE[0] and np.isclose(stance[1], STANCE[1])
    assert grasp[0] - stance[0] <= TAKE_REACH + 1e-9
    assert stance[0] == STANCE[0] or np.isclose(grasp[0] - stance[0], TAKE_REACH)


@pytest.mark.parametrize(("roll", "tilt"), [(0, 0), (180, 0), (30, 30), (90, 90), (120, 60)])
def test_sandwich_tilt_counts_either_face_up_as_flat(
        at_stance: SandwichRemove, roll: float, tilt: float) -> None:
    saved = at_stance.kin.data.qpos.copy()
    try:
        move_sandwich(at_stance, rot=rot_x(np.radians(roll)))
        assert np.isclose(np.degrees(at_stance.sandwich_tilt()), tilt)
    finally:
        at_stance.kin.set_state(saved)


def test_level_tip_keeps_the_point_under_the_sandwich_and_clears_the_rim(
        at_stance: SandwichRemove) -> None:
    """Levelling a blade pitched 20 degrees nose down under the sandwich: the blade point
    under the sandwich's centre keeps its place in plan, the tip ends RIM_CLEARANCE
    above the pan's rim."""
    heading, pitch = HEADING, np.radians(20)
    rot = spatula_rotation(heading, pitch)
    sandwich_at = at_stance.kin.body_pos("sandwich")
    tip = sandwich_at + rot[:, 0] * 0.04 - up(0.02)  # the tip 4 cm beyond the centre
    saved = posed_spatula(at_stance, tip, rot)
    try:
        body, now = at_stance.kin.body_pos("spatula"), at_stance.kin.body_rot("spatula")
        under = now.T @ (sandwich_at - body)
        under[2] = 0.0
        level_tip = at_stance.level_tip(CARRY_PITCH)
        level = spatula_rotation(heading, CARRY_PITCH)
        level_body = level_tip - level @ TIP
        assert np.allclose((level_body + level @ under)[:2], (body + now @ under)[:2])
        rim = at_stance.kin.body_pos("pan")[2] + ks.PAN_HEIGHT
        assert np.isclose(level_tip[2], rim + RIM_CLEARANCE)
    finally:
        at_stance.kin.set_state(saved)


def test_carry_heading_and_tip_roll_are_reached_over_the_board(at_stance: SandwichRemove) -> None:
    """Over the board (BOARD_SPOT, BOARD_DROP) the right hand holding the spatula with the
    upright jaw reaches the blade level at CARRY_HEADING and rolled TIP_ROLL, solved on
    from the level pose as the arm moves; turned 20 degrees left of +x instead (toward
    the pan's side), the level pose is out of reach."""
    expert = at_stance
    upright = np.array([REGRIP_AT, 0.0, 0.011]), rot_x(JAW_ROLL)
    board = expert.kin.body_pos("board")
    tip = board + np.array([*BOARD_SPOT, ks.BOARD_HALF[2] + BOARD_DROP])
    q, level_error = expert.kin.solve(
        "right", *expert.blade(upright, tip, CARRY_HEADING, 0.0)["right"],
        KEYFRAME_ARMS["right"], iterations=300)
    rolled_error = expert.kin.solve(
        "right", *expert.blade(upright, tip, CARRY_HEADING, 0.0, TIP_ROLL)["right"], q,
        iterations=300)[1]
    left_error = expert.kin.solve(
        "right", *expert.blade(upright, tip, np.radians(20), 0.0)["right"],
        KEYFRAME_ARMS["right"], iterations=300)[1]
    assert level_error < REACHED and rolled_error < REACHED, (level_error, rolled_error)
    assert left_error > 10 * REACHED
