"""Scripted experts: an oracle policy that runs a script of motion primitives.

An ``Expert`` keeps a raw whole-body command (base velocities and height, arm joint
targets, grippers) and turns it into the official normalized action every control
step. Its ``script()`` is a generator: each ``yield`` is one control step, and the
primitives below are sub-generators (``yield from self.move(...)``):

* ``move``: the pinch sites of one or both hands along straight lines, with
  minimum-jerk timing and orientation interpolated on the shortest rotation, by
  inverse kinematics at every step (world-frame targets, so a swaying body is
  followed);
* ``joints``: arm joint targets interpolated in joint space (back to a stance);
* ``grip``: a gripper ramped to a closure;
* ``walk_to``: the base walked to a pelvis pose (x, y, yaw) by the lower-body
  controller, closed loop on the world state, then stopped;
* ``wait``: hold everything.

The expert sees the world
state after each control step (``bench.policies.oracle``); its first action, before
any world state, is the keyframe hold, and so is every action after the script ends.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import mujoco
import numpy as np

from bench import layout
from bench.policies.experts.kinematics import SIDES, Kinematics, rotation_error
from bench.policies.oracle import WorldState
from bench.robot import constants as c
from bench.tasks import get_spec

STAND_HEIGHT = 0.74  # m, base-height command
KEYFRAME_ARMS = {"left": c.KEYFRAME_JOINTS[15:22], "right": c.KEYFRAME_JOINTS[22:29]}
WALK_SPEED = 0.25  # m/s, largest walking command
TURN_SPEED = 0.4  # rad/s, largest turning command
WALK_GAIN = 1.5  # 1/s, velocity command per metre (or rad) of error
WALK_TOLERANCE = (0.02, 0.05)  # m, rad: close enough to stop
WALK_SETTLE = 25  # control steps of standing after a walk
REACH_AHEAD = 0.33  # m, a comfortable reach: target this far ahead of the pelvis
REACH_ASIDE = 0.12  # m, and this far toward the reaching hand's side
REACHABLE = 0.005  # m, inverse-kinematics error below which a target counts as reachable
STEPS_PER_METRE = 250  # control steps per metre of hand travel (0.2 m/s)
TRACK_GAIN = 0.1  # share of the hand's position error added to its offset per step
TRACK_LIMIT = 0.10  # m, largest offset
TRACK_WINDOW = 0.12  # m, offsets learn only from errors smaller than this (not gross lag)
JOINT_STEP = 0.04  # rad, largest change of an arm joint target per control step (2 rad/s)

# A hand target: position (3,) and orientation: a rotation (3, 3), a direction (3,) to
# point along with the roll free, or None (free).
Pose = tuple[np.ndarray, np.ndarray | None]


def min_jerk(s: float) -> float:
    """Minimum-jerk time scaling of s in [0, 1]."""
    return s ** 3 * (10 - 15 * s + 6 * s * s)


def interpolate_direction(start: np.ndarray, end: np.ndarray, s: float) -> np.ndarray:
    """The unit vector a fraction ``s`` of the shortest way from ``start`` to ``end``."""
    a, b = start / np.linalg.norm(start), end / np.linalg.norm(end)
    angle = float(np.arccos(np.clip(a @ b, -1.0, 1.0)))
    if angle < 1e-9:
        return b
    return (np.sin((1 - s) * angle) * a + np.sin(s * angle) * b) / np.sin(angle)


def interpolate_rotation(start: np.ndarray, end: np.ndarray, s: float) -> np.ndarray:
    """The rotation a fraction ``s`` of the shortest way from ``start`` to ``end``."""
    vector = rotation_error(end, start) * s
    quat, turn = np.zeros(4), np.zeros(4)
    mujoco.mju_mat2Quat(quat, start.reshape(-1))
    angle = float(np.linalg.norm(vector))
    if angle > 1e-9:
        mujoco.mju_axisAngle2Quat(turn, vector / angle, angle)
        mujoco.mju_mulQuat(quat, turn, quat)
    out = np.zeros(9)
    mujoco.mju_quat2Mat(out, quat)
    return out.reshape(3, 3)


class Expert:
    """A scripted oracle policy for one task; subclasses write ``script()``."""

    def __init__(self, task: str):
        self.task = task
        self.pitch_command = get_spec(task).pitch_command
        self.slots = layout.wholebody_action_layout(self.pitch_command)
        self.kin = Kinematics(task)
        self.reset()

    def reset(self) -> None:
        """Start a new episode."""
        self.world: WorldState | None = None
        self._script: Iterator[None] | None = None
        self.finished = False
        self.velocity = np.zeros(3)  # vx, vy (m/s, body frame), wz (rad/s)
        self.height = STAND_HEIGHT
        self.torso_pitch = 0.0  # rad, + leans forward (tasks with the pitch command)
        self.arm = {side: KEYFRAME_ARMS[side].copy() for side in SIDES}
        self.gripper = {side: 0.0 for side in SIDES}
        self.hand: dict[str, Pose] = {}
        self.offset = {side: np.zeros(3) for side in SIDES}
        self.learning = True  # offsets learn (off while a hand pushes on something)

    def observe_world(self, state: WorldState) -> None:
        """The oracle channel: the world state after the latest control step."""
        self.world = state
        self.kin.set_state(state.qpos)

    def __call__(self, observation: dict[str, Any]) -> np.ndarray:
        if self.world is not None and not self.finished:
            if self._script is None:
                self._script = self.script()
            if self.learning:
                self._learn_offsets()
            try:
                next(self._script)
            except StopIteration:
                self.finished = True
                self.velocity[:] = 0.0
            self._track()
        return self.action()

    def _learn_offsets(self) -> None:
        """Integrate each hand's error between where it was sent and where the world
        state has it (arm sag under gravity and load, the body swaying)."""
        for side, (pos, _) in self.hand.items():
            error = pos - self.kin.pinch_pose(side)[0]
            if np.linalg.norm(error) > TRACK_WINDOW:
                continue
            self.shift_offset(side, TRACK_GAIN * error, TRACK_LIMIT)

    def shift_offset(self, side: str, delta: np.ndarray, limit: float) -> None:
        """Add ``delta`` to ``side``'s hand offset, its norm clamped to ``limit`` (m)."""
        offset = self.offset[side] + delta
        self.offset[side] = offset * min(1.0, limit / max(float(np.linalg.norm(offset)), 1e-12))

    def _track(self) -> None:
        """Arm angles for every hand with a Cartesian target, by inverse kinematics, each
        joint moving at most JOINT_STEP per control step."""
        for side, (pos, rot) in self.hand.items():
            q, _ = self.kin.solve(side, pos + self.offset[side], rot, self.arm[side])
            self.step_arm(side, q)

    def step_arm(self, side: str, q: np.ndarray) -> None:
        """Move ``side``'s commanded arm angles toward ``q``, each joint at most
        JOINT_STEP (one control step of tracking)."""
        self.arm[side] = self.arm[side] + np.clip(q - self.arm[side], -JOINT_STEP, JOINT_STEP)

    def script(self) -> Iterator[None]:
        """The task's script; each yield is one control step."""
        raise NotImplementedError

    def action(self) -> np.ndarray:
        """The normalized action for the current command."""
        arms = [self.arm[side] for side in SIDES]
        vx, vy, wz = self.velocity
        raw = np.concatenate([[vx, vy, self.height, wz], [self.torso_pitch] * self.pitch_command,
                              *arms,
                              [self.gripper["left"], self.gripper["right"]]])
        return layout.normalize(raw, self.slots).astype(np.float32)

    # ----- primitives --------------------------------------------------------------------

    def commanded_pose(self, side: str) -> tuple[np.ndarray, np.ndarray]:
        """The pinch pose the hand was last sent to (its current pose at first), with
        the current orientation where the last move left it (partly) free."""
        pos, rot = self.hand.get(side) or self.kin.pinch_pose(side)
        return pos, rot if rot is not None and rot.shape == (3, 3) else \
            self.kin.pinch_pose(side)[1]

    def move(self, targets: Mapping[str, Pose], steps: int | None = None,
             contact: bool = False) -> Iterator[None]:
        """Move the named hands' pinch sites to their (position, rotation) targets in
        ``steps`` control steps (default: from the longest distance at 0.2 m/s); a None
        rotation leaves the orientation free. ``contact``: the hand pushes or carries
        something, so its position error is no sag to learn from."""
        self.learning = not contact
        starts = {side: self.commanded_pose(side) for side in targets}
        if steps is None:
            distance = max(float(np.linalg.norm(targets[s][0] - starts[s][0])) for s in targets)
            steps = max(10, int(distance * STEPS_PER_METRE))
        for k in range(1, steps + 1):
            s = min_jerk(k / steps)
            for side, (pos, rot) in targets.items():
                p0, r0 = starts[side]
                turn = (None if rot is None else interpolate_direction(r0[:, 0], rot, s)
                        if rot.shape == (3,) else interpolate_rotation(r0, rot, s))
                self.hand[side] = (p0 + s * (pos - p0), turn)
            yield

    def joints(self, targets: dict[str, np.ndarray], steps: int) -> Iterator[None]:
        """Interpolate the named arms' joint targets to ``targets`` in ``steps``. The
        arms leave Cartesian tracking first, so the interpolation is what they follow."""
        for side in targets:
            self.hand.pop(side, None)
            self.offset[side] = np.zeros(3)
        starts = {side: self.arm[side].copy() for side in targets}
        for k in range(1, steps + 1):
            s = min_jerk(k / steps)
            for side, q in targets.items():
                self.arm[side] = starts[side] + s * (np.asarray(q) - starts[side])
            yield

    def grip(self, side: str, closure: float, steps: int = 15) -> Iterator[None]:
        """Ramp a gripper to ``closure`` (0 open .. 1 closed)."""
        start = self.gripper[side]
        for k in range(1, steps + 1):
            self.gripper[side] = start + (closure - start) * k / steps
            yield

    def lean(self, pitch: float, steps: int = 40) -> Iterator[None]:
        """Ramp the torso-pitch command to ``pitch`` (rad, + forward). Only tasks with the
        pitch command have it; the embedded default follows it while the robot stands
        (its standing controller), not while it walks."""
        start = self.torso_pitch
        for k in range(1, steps + 1):
            self.torso_pitch = start + (pitch - start) * min_jerk(k / steps)
            yield

    def rise(self, height: float, steps: int) -> Iterator[None]:
        """Ramp the base-height command to ``height`` (m, minimum jerk). The floating base
        follows it; the embedded default while the robot stands, not while it walks."""
        start = self.height
        for k in range(1, steps + 1):
            self.height = start + (height - start) * min_jerk(k / steps)
            yield

    def servo(self, side: str, tolerance: float, steps: int,
              target: np.ndarray | None = None, body: str | None = None,
              gain: float = TRACK_GAIN, limit: float = TRACK_LIMIT) -> Iterator[None]:
        """Hold ``side``'s hand target while its offset takes ``gain`` of an error per
        step, clamped to ``limit``, until the error is below ``tolerance`` or after
        ``steps`` control steps. The error is the pinch site's from ``target`` (default:
        the hand's own target), and continuous learning stays as the last move left it;
        with ``body``, it is that body's position error from ``target`` (a held object
        brought onto its place), and continuous learning is off."""
        if body is not None:
            self.learning = False
        for _ in range(steps):
            if body is not None:
                error = target - self.kin.body_pos(body)
            else:
                goal = self.hand[side][0] if target is None else target
                error = goal - self.kin.pinch_pose(side)[0]
            if np.linalg.norm(error) < tolerance:
                return
            self.shift_offset(side, gain * error, limit)
            yield

    def wait(self, steps: int) -> Iterator[None]:
        """Hold the command for ``steps`` control steps."""
        for _ in range(steps):
            yield

    def easiest(self, side: str, pos: np.ndarray, rotations: Sequence[np.ndarray]) -> np.ndarray:
        """Of equivalent hand rotations (e.g. the jaw either way up), the one inverse
        kinematics reaches best at ``pos`` from the current arm angles."""
        errors = [self.kin.solve(side, pos, rot, self.arm[side], iterations=100)[1]
                  for rot in rotations]
        return rotations[int(np.argmin(errors))]

    def reachable(self, side: str, pos: np.ndarray) -> bool:
        """Whether the hand can put its pinch site at ``pos`` from where the body stands."""
        _, error = self.kin.solve(side, pos, None, self.arm[side], iterations=100)
        return error < REACHABLE

    def step_into_reach(self, targets: Mapping[str, np.ndarray]) -> Iterator[None]:
        """Walk, if a hand cannot reach its target from here, to where the targets are
        REACH_AHEAD in front of the pelvis and REACH_ASIDE toward a single hand's side."""
        if all(self.reachable(side, pos) for side, pos in targets.items()):
            return
        centre = np.mean([pos for pos in targets.values()], axis=0)
        aside = sum((1.0 if side == "left" else -1.0) for side in targets) * REACH_ASIDE
        yield from self.walk_to(centre[0] - REACH_AHEAD, centre[1] - aside, 0.0)

    def walk_to(self, x: float, y: float, yaw: float, max_steps: int = 400,
                tolerance: tuple[float, float] = WALK_TOLERANCE,
                min_speed: float = 0.0) -> Iterator[None]:
        """Walk the pelvis to (x, y, yaw), closed loop, until within ``tolerance`` (m, rad)
        or ``max_steps``, then stand for WALK_SETTLE steps. ``min_speed`` (m/s) keeps the
        last centimetres from asking for speeds a controller does not step for.
        Velocities are commanded in the body frame, proportional to the error. The arms
        keep their joint angles (the hands travel with the body)."""
        self.hand.clear()
        self.offset = {side: np.zeros(3) for side in SIDES}
        for _ in range(max_steps):
            px, py, pyaw = self.kin.pelvis_pose()
            dx, dy = x - px, y - py
            dyaw = float(np.arctan2(np.sin(yaw - pyaw), np.cos(yaw - pyaw)))
            if np.hypot(dx, dy) < tolerance[0] and abs(dyaw) < tolerance[1]:
                break
            cos, sin = np.cos(pyaw), np.sin(pyaw)
            body = np.array([cos * dx + sin * dy, -sin * dx + cos * dy]) * WALK_GAIN
            norm = float(np.linalg.norm(body))
            body *= np.clip(norm, min_speed, WALK_SPEED) / max(norm, 1e-9)
            self.velocity = np.array([*body, np.clip(WALK_GAIN * dyaw, -TURN_SPEED, TURN_SPEED)])
            yield
        self.velocity = np.zeros(3)
        yield from self.wait(WALK_SETTLE)
