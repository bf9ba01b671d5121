"""A model-based standing controller: pelvis height, torso pitch, roll and yaw.

The embedded default's Balance mode (``bench.wbc.holosoma``). No registry ships a G1
policy that takes a height or torso command, and training one on CPU is not practical
(../shared/reference/stance-controller.md), so standing is model-based. Each 50 Hz
control step:

1. **Goal.** The commanded height and torso angles are clipped to what the G1's legs
   reach (``constants.STANCE_HEIGHT_RANGE`` and friends) and approached at bounded
   rates, so a jump in the command becomes a ramp. The torso leans only as far as
   the motors hold (``StanceParams.effort_hold``).
2. **Whole-body IK** on the controller's own copy of the robot model, warm-started
   from the previous solution: damped least squares over the free base and the 15
   leg and waist joints, arms fixed at the policy's arm targets (so the legs
   compensate for where the arms are going). Tasks, by weight: both feet fixed in 6D
   where the stance began, flat on the floor; the centre of mass within a zone over
   the middle of the feet; the pelvis height; the torso orientation; the pelvis level in roll and
   facing the feet; waist roll and yaw near zero; the keyframe posture, weakly.
   Joints at a limit that the step would push past leave the solve (active set).
3. **Balance feedback.** The measured centre of mass against the planned one, both
   relative to the measured feet (joint angles and the IMU orientation only, no base
   position, so the same code runs on the real robot): a horizontal force F on the
   centre of mass against the offset and its rate (a spring and damper per kg).
4. **Feedforward.** The generalized force of gravity on the IK posture and of F at
   its centre of mass, less the foot wrenches that carry both (the least-norm ones,
   moments penalised), tau = g(q) + Jcom^T F - Jc^T f, sent through the servos as a
   target offset tau / kp. Sideways, F becomes a shift of load between the feet (hips
   and knees); along the feet, ankle pitch torque. An ankle-roll torque would roll a
   sole 7 cm wide off its edge, which is how the earlier ankle-torque feedback let a
   deep stance fall.

The stance frame has its origin between the feet on the floor, x along the feet's
mean heading. Heights are measured from the soles, so "height" is the pelvis height
above the floor the robot stands on, in simulation and on hardware alike.

The weights, gains and rates are the fields of ``StanceParams``; the record's
fingerprint hashes this module's source, and with it them (``bench.eval.fingerprint``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import mujoco
import numpy as np

from bench.robot import assembly
from bench.robot import constants as c
from bench.wbc.base import RobotState

FOOT_BODIES = ("left_ankle_roll_link", "right_ankle_roll_link")
CONTROL_DT = 0.02  # s
GRAVITY = 9.81  # m/s^2
# The sole's extent around the ankle, from the G1's foot collision capsules (m): toe
# and heel along the foot, and half the width across it.
FOOT_TOE = 0.142
FOOT_HEEL = -0.064
FOOT_HALF_WIDTH = 0.036
SOLE_CORNERS = np.array([[FOOT_TOE, FOOT_HALF_WIDTH], [FOOT_TOE, -FOOT_HALF_WIDTH],
                         [FOOT_HEEL, -FOOT_HALF_WIDTH], [FOOT_HEEL, FOOT_HALF_WIDTH]])
CAPTURE_MARGIN = 0.01  # m, the capture point must stay this far inside the soles
# A stance engages only from feet placed like a standing G1's (the keyframe has them
# 0.237 m apart, side by side, parallel): after a recovery step they may not be.
STANCE_WIDTH = (0.12, 0.45)  # m, between the ankles across the feet's heading
STANCE_STAGGER = 0.15  # m, most one foot may stand ahead of the other
STANCE_SPLAY = 0.4  # rad, most the feet's headings may differ
# Both feet count as down when their soles are level (the IMU gives "level") and at
# one height; the G1 has no foot force sensors.
FEET_LEVEL = 0.01  # m
FEET_LEVEL_ANGLE = 0.05  # rad


# Weight of a foot moment (N m) against a foot force (N) in the feedforward's wrench
# distribution: (1 / 0.03 m)^2, a moment costs as much as its force at 3 cm.
WRENCH_MOMENT_WEIGHT = 1.0 / 0.03 ** 2
WRENCH_SCALE = np.tile(np.r_[np.ones(3), np.full(3, WRENCH_MOMENT_WEIGHT ** -0.5)], 2)


@dataclass
class Balance:
    """The measured balance, in the feet's frame (x along their heading)."""

    offset: np.ndarray  # (2,) m, centre of mass minus the planned one, over the feet
    rate: np.ndarray  # (2,) m/s, rate of the centre of mass relative to the feet
    capture: np.ndarray  # (2,) m, capture point relative to the ankles' midpoint
    capturable: bool  # the capture point lies inside the soles: no step needed
    feet_placed: bool  # the feet stand as a stance needs (STANCE_WIDTH and friends)
    feet_flat: bool  # both soles level and at one height: both feet are down


@dataclass(frozen=True)
class StanceParams:
    """Weights, gains and rates of the standing controller (the values in use are
    the defaults)."""

    # IK task weights (dimensionless, relative)
    foot_position: float = 1e4
    foot_orientation: float = 3e3
    com_xy: float = 1e3
    pelvis_height: float = 1e3
    torso_orientation: float = 300.0
    pelvis_level: float = 30.0  # pelvis roll and yaw relative to the feet
    pelvis_pitch: float = 3.0  # pelvis pitch toward level
    # Beyond this tilt (rad) the pelvis is pulled back with pelvis_tilt_barrier: the
    # benchmark counts a pelvis tilt over 53 degrees as a fall, however stable.
    pelvis_tilt_limit: float = 0.52
    pelvis_tilt_barrier: float = 1e3
    waist_rest: float = 30.0  # waist roll and yaw toward zero
    posture: float = 0.1  # all 15 joints toward the keyframe
    damping: float = 1e-4
    iterations: int = 8  # per control step, at most
    max_step: float = 0.1  # rad (or m), largest change of one coordinate per iteration
    converged: float = 1e-5  # stop iterating when the largest change is below this
    limit_margin: float = 0.01  # rad, kept from every joint limit
    com_forward: float = 0.035  # m, centre of the centre-of-mass zone ahead of the ankles
    # m, half-extents (along, across the feet) of the zone the planned centre of mass is
    # kept in: inside it the legs hold still while the arms move, so the hands go where
    # an arm's inverse kinematics sent them; past its edge the legs shift the body back.
    com_zone: tuple[float, float] = (0.015, 0.03)
    # balance feedback: a horizontal force on the centre of mass against its offset
    # from the plan and its rate, per kg of robot, carried by the feet through the
    # feedforward's wrench distribution
    com_kp: float = 30.0  # 1/s^2
    com_kd: float = 6.0  # 1/s
    # servo gains per leg (hip pitch, roll, yaw, knee, ankle pitch, roll) and waist
    leg_kp: tuple[float, ...] = (150.0, 150.0, 150.0, 200.0, 40.0, 40.0)  # N m/rad
    leg_kd: tuple[float, ...] = (2.0, 2.0, 2.0, 4.0, 2.0, 2.0)  # N m s/rad
    waist_kp: float = 250.0  # N m/rad
    waist_kd: float = 5.0  # N m s/rad
    # goal rates
    height_rate: float = 0.25  # m/s
    angle_rate: float = 1.0  # rad/s
    # Leaning as far as the motors hold: while the planned holding torque of a leg or
    # waist joint exceeds this share of its limit the torso leans no further (pitch and
    # roll), and beyond the second share it comes back toward upright at angle_rate. The
    # waist pitch (50 N m) is the first to run out, with the torso pitched and the arms
    # out: near its limit the servo sags and the centre of mass runs ahead of the plan.
    effort_hold: float = 0.55
    effort_retreat: float = 0.65


PARAMS = StanceParams()


@dataclass
class StanceGoal:
    """What the stance tracks: pelvis height above the soles and torso angles."""

    height: float = 0.74  # m
    pitch: float = 0.0  # rad, + leans forward
    roll: float = 0.0  # rad, + leans right side down (about the heading axis)
    yaw: float = 0.0  # rad, torso heading relative to the feet, + to the left

    def as_array(self) -> np.ndarray:
        """(height, pitch, roll, yaw)."""
        return np.array([self.height, self.pitch, self.roll, self.yaw])


def _turn(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
    """z of (b - a) x (c - a): positive for a left turn."""
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def inside_convex_hull(point: np.ndarray, points: np.ndarray, margin: float) -> bool:
    """Whether ``point`` lies at least ``margin`` inside the convex hull of ``points``
    (2-D; Andrew's monotone chain)."""
    ordered = sorted(map(tuple, points))

    def half(chain: list[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in chain:
            while len(out) >= 2 and _turn(out[-2], out[-1], p) <= 0:
                out.pop()
            out.append(p)
        return out[:-1]

    hull = np.array(half(ordered) + half(ordered[::-1]))  # counter-clockwise
    edges = np.roll(hull, -1, axis=0) - hull
    normals = np.stack([edges[:, 1], -edges[:, 0]], axis=1)  # outward
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    return bool(np.all(np.einsum("ij,ij->i", point - hull, normals) <= -margin))


def clip_goal(goal: StanceGoal) -> StanceGoal:
    """The goal clipped to what the G1 reaches standing (constants.STANCE_*)."""
    return StanceGoal(float(np.clip(goal.height, *c.STANCE_HEIGHT_RANGE)),
                      float(np.clip(goal.pitch, *c.STANCE_PITCH_RANGE)),
                      float(np.clip(goal.roll, *c.STANCE_ROLL_RANGE)),
                      float(np.clip(goal.yaw, *c.STANCE_YAW_RANGE)))


@functools.lru_cache(maxsize=1)
def robot_model() -> mujoco.MjModel:
    """The bare G1 + Dex1-1 model the controller computes with (compiled once)."""
    return assembly.robot_spec().compile()


def _rot_z(angle: float) -> np.ndarray:
    cos, sin = np.cos(angle), np.sin(angle)
    return np.array([[cos, -sin, 0.0], [sin, cos, 0.0], [0.0, 0.0, 1.0]])


def _rot_y(angle: float) -> np.ndarray:
    cos, sin = np.cos(angle), np.sin(angle)
    return np.array([[cos, 0.0, sin], [0.0, 1.0, 0.0], [-sin, 0.0, cos]])


def _rot_x(angle: float) -> np.ndarray:
    cos, sin = np.cos(angle), np.sin(angle)
    return np.array([[1.0, 0.0, 0.0], [0.0, cos, -sin], [0.0, sin, cos]])


def orientation_error(current: np.ndarray, goal: np.ndarray) -> np.ndarray:
    """Rotation vector (world frame, small-angle form) that turns ``current`` toward
    ``goal`` (both 3 x 3 rotation matrices)."""
    skew = goal @ current.T
    return 0.5 * np.array([skew[2, 1] - skew[1, 2], skew[0, 2] - skew[2, 0],
                           skew[1, 0] - skew[0, 1]])


def torso_rotation(goal: StanceGoal) -> np.ndarray:
    """The torso's goal orientation in the stance frame: yaw, then pitch, then roll."""
    return _rot_z(goal.yaw) @ _rot_y(goal.pitch) @ _rot_x(goal.roll)


def heading(rotation: np.ndarray) -> float:
    """Yaw of a rotation's x axis in the horizontal plane, rad."""
    return float(np.arctan2(rotation[1, 0], rotation[0, 0]))


def torso_angles(model: mujoco.MjModel, data: mujoco.MjData) -> tuple[float, float, float]:
    """(pitch, roll, yaw) of the torso in ``data``'s world frame."""
    return rotation_angles(data.body(c.TORSO_BODY).xmat.reshape(3, 3))


def rotation_angles(rotation: np.ndarray) -> tuple[float, float, float]:
    """(pitch, roll, yaw) of a rotation in the convention of ``torso_rotation`` (yaw
    about z, then pitch, then roll)."""
    yaw = heading(rotation)
    local = _rot_z(yaw).T @ rotation
    pitch = float(np.arctan2(-local[2, 0], local[0, 0]))
    roll = float(np.arctan2(local[2, 1], local[2, 2]))
    return pitch, roll, yaw


class Kinematics:
    """Forward kinematics of the controller's model: joint angles and a pelvis pose in,
    feet, centre of mass, torso and Jacobians out."""

    def __init__(self, model: mujoco.MjModel):
        self.model = model
        self.data = mujoco.MjData(model)
        self.qpos_index = np.array([model.joint(j).qposadr[0] for j in c.JOINTS])
        self.dof_index = np.array([model.joint(j).dofadr[0] for j in c.JOINTS])
        self.feet = [model.body(name).id for name in FOOT_BODIES]
        self.pelvis = model.body(c.PELVIS_BODY).id
        self.torso = model.body(c.TORSO_BODY).id
        self._jacp = np.zeros((3, model.nv))
        self._jacr = np.zeros((3, model.nv))

    def set(self, pelvis_pos: np.ndarray, pelvis_quat: np.ndarray,
            joints: np.ndarray) -> None:
        """Pose the model and run its kinematics and centre of mass."""
        d = self.data
        d.qpos[:3] = pelvis_pos
        d.qpos[3:7] = pelvis_quat
        d.qpos[self.qpos_index] = joints
        mujoco.mj_kinematics(self.model, d)
        mujoco.mj_comPos(self.model, d)

    def body_jacobian(self, body: int) -> tuple[np.ndarray, np.ndarray]:
        """Translational and rotational Jacobians (world frame) of a body's origin."""
        mujoco.mj_jacBody(self.model, self.data, self._jacp, self._jacr, body)
        return self._jacp.copy(), self._jacr.copy()

    def com_jacobian(self) -> np.ndarray:
        """Jacobian of the whole robot's centre of mass."""
        mujoco.mj_jacSubtreeCom(self.model, self.data, self._jacp, self.pelvis)
        return self._jacp.copy()

    def com(self) -> np.ndarray:
        """The robot's centre of mass."""
        return self.data.subtree_com[self.pelvis].copy()

    def rotation(self, body: int) -> np.ndarray:
        """A body's 3 x 3 orientation."""
        return self.data.xmat[body].reshape(3, 3).copy()

    def position(self, body: int) -> np.ndarray:
        """A body's origin."""
        return self.data.xpos[body].copy()


def sole_offset(model: mujoco.MjModel) -> float:
    """Height of the ankle-roll body's origin above the sole with the foot flat (m),
    from the keyframe stance, where the feet stand flat on the floor at z = 0."""
    kin = Kinematics(model)
    kin.set(np.array([0.0, 0.0, c.KEYFRAME_PELVIS_HEIGHT]), np.array([1.0, 0, 0, 0]),
            c.KEYFRAME_JOINTS)
    return float(kin.position(kin.feet[0])[2])


def _quat_of(rotation: np.ndarray) -> np.ndarray:
    quat = np.zeros(4)
    mujoco.mju_mat2Quat(quat, rotation.reshape(9))
    return quat


class StanceController:
    """Whole-body standing: IK posture + gravity feedforward + ankle balance feedback.

    ``engage(state, arms)`` starts a stance where the feet are; ``command(...)`` then
    returns the 15 leg and waist targets (servo targets with the feedforward folded
    in) for each control step.
    """

    def __init__(self, params: StanceParams = PARAMS):
        self.params = params
        model = robot_model()
        self.ik = Kinematics(model)  # the planned posture, in the stance frame
        self.measured = Kinematics(model)  # the measured posture, IMU frame
        self.sole = sole_offset(model)
        self.mass = float(model.body_subtreemass[self.ik.pelvis])
        self.effort_limit = c.EFFORT_LIMIT[:15]
        self.effort = 0.0  # the last plan's largest holding torque / limit
        self.lower = self.ik.dof_index[:15]
        self.columns = np.concatenate([np.arange(6), self.lower])  # IK unknowns
        limits = model.jnt_range[[model.joint(j).id for j in c.LOWER_BODY]]
        self.low = limits[:, 0] + params.limit_margin
        self.high = limits[:, 1] - params.limit_margin
        self.kp = np.array([*params.leg_kp, *params.leg_kp] + [params.waist_kp] * 3)
        self.kd = np.array([*params.leg_kd, *params.leg_kd] + [params.waist_kd] * 3)
        self.goal = StanceGoal()
        self.q = np.zeros(model.nq)  # the planned posture (qpos of the stance frame)
        self.feet_goal: list[tuple[np.ndarray, np.ndarray]] = []
        self.com_goal = np.zeros(2)
        self.ankles = np.zeros(2)  # midpoint of the feet goals (stance frame, x and y)
        self.planned_com = np.array([params.com_forward, 0.0])  # relative to the ankles

    # ----- engaging --------------------------------------------------------------------

    def _measure(self, state: RobotState) -> None:
        """The measured posture: joint angles and the IMU orientation, pelvis at 0."""
        self.measured.set(np.zeros(3), state.base_quat, state.joint_pos)

    def _feet_frame(self) -> tuple[np.ndarray, float]:
        """Origin (on the floor, between the soles) and heading of the measured feet."""
        kin = self.measured
        feet = [kin.position(b) for b in kin.feet]
        yaws = [heading(kin.rotation(b)) for b in kin.feet]
        mean_yaw = float(np.arctan2(np.mean(np.sin(yaws)), np.mean(np.cos(yaws))))
        origin = 0.5 * (feet[0] + feet[1])
        origin[2] = min(f[2] for f in feet) - self.sole
        return origin, mean_yaw

    def engage(self, state: RobotState, arm_targets: np.ndarray) -> None:
        """Start a stance from the measured posture: the feet stay where they are (flat
        on the floor), the goal starts at the measured height and torso angles."""
        self._measure(state)
        origin, yaw = self._feet_frame()
        to_stance = _rot_z(yaw).T
        kin = self.measured
        self.feet_goal = []
        for body in kin.feet:
            position = to_stance @ (kin.position(body) - origin)
            position[2] = self.sole
            foot_yaw = heading(to_stance @ kin.rotation(body))
            self.feet_goal.append((position, _rot_z(foot_yaw)))
        forward = np.array([self.params.com_forward, 0.0])
        self.ankles = 0.5 * (self.feet_goal[0][0][:2] + self.feet_goal[1][0][:2])
        self.com_goal = self.ankles + forward
        pelvis = to_stance @ -origin
        quat = _quat_of(to_stance @ kin.rotation(kin.pelvis))
        self.ik.set(pelvis, quat, np.concatenate([state.joint_pos[:15], arm_targets]))
        self.q = self.ik.data.qpos.copy()
        self.planned_com = self.ik.com()[:2] - self.ankles  # the engaged posture's, not the
        # last stance's (which may be another episode's)
        pitch, roll, torso_yaw = torso_angles(self.ik.model, self.ik.data)
        self.goal = StanceGoal(float(pelvis[2]), pitch, roll, torso_yaw)
        self.effort = 0.0

    # ----- one control step ------------------------------------------------------------

    def _approach(self, command: StanceGoal) -> None:
        """Move the goal toward the clipped command at the bounded rates, leaning no
        further while the last plan's holding torques are high (``effort_hold``)."""
        p = self.params
        target = clip_goal(command).as_array()
        now = self.goal.as_array()
        rates = np.array([p.height_rate] + [p.angle_rate] * 3) * CONTROL_DT
        step = np.clip(target - now, -rates, rates)
        lean = np.array([False, True, True, False])  # pitch and roll
        if self.effort > p.effort_retreat:
            step[lean] = -np.clip(now[lean], -rates[lean], rates[lean])
        elif self.effort > p.effort_hold:
            step[lean & (np.abs(now + step) > np.abs(now))] = 0.0
        self.goal = StanceGoal(*(now + step).tolist())

    def _residuals(self) -> tuple[np.ndarray, np.ndarray]:
        """Stacked weighted Jacobian rows and errors of every IK task."""
        p, kin = self.params, self.ik
        rows: list[np.ndarray] = []
        errors: list[np.ndarray] = []

        def add(weight: float, jac: np.ndarray, err: np.ndarray) -> None:
            rows.append(np.sqrt(weight) * jac[:, self.columns])
            errors.append(np.sqrt(weight) * err)

        for body, (position, rotation) in zip(kin.feet, self.feet_goal, strict=True):
            jacp, jacr = kin.body_jacobian(body)
            add(p.foot_position, jacp, position - kin.position(body))
            add(p.foot_orientation, jacr, orientation_error(kin.rotation(body), rotation))
        com = kin.com()[:2]
        zone = np.array(p.com_zone)
        add(p.com_xy, kin.com_jacobian()[:2],
            np.clip(com, self.com_goal - zone, self.com_goal + zone) - com)
        jacp, jacr = kin.body_jacobian(kin.pelvis)
        add(p.pelvis_height, jacp[2:3], np.array([self.goal.height - kin.position(kin.pelvis)[2]]))
        level = orientation_error(kin.rotation(kin.pelvis), np.eye(3))
        add(p.pelvis_level, jacr[[0, 2]], level[[0, 2]])
        add(p.pelvis_pitch, jacr[1:2], level[1:2])
        tilt = float(np.arccos(np.clip(kin.rotation(kin.pelvis)[2, 2], -1.0, 1.0)))
        if tilt > p.pelvis_tilt_limit:
            excess = (tilt - p.pelvis_tilt_limit) / tilt
            add(p.pelvis_tilt_barrier, jacr[:2], excess * level[:2])
        _, jacr = kin.body_jacobian(kin.torso)
        add(p.torso_orientation, jacr,
            orientation_error(kin.rotation(kin.torso), torso_rotation(self.goal)))
        joints = np.zeros((15, kin.model.nv))
        joints[np.arange(15), self.lower] = 1.0
        q = kin.data.qpos[kin.qpos_index[:15]]
        add(p.waist_rest, joints[[13, 12]], -q[[13, 12]])
        add(p.posture, joints, c.KEYFRAME_JOINTS[:15] - q)
        return np.vstack(rows), np.concatenate(errors)

    def _ik_step(self) -> float:
        """One damped least-squares step with an active set at the joint limits; returns
        the largest coordinate change."""
        jac, err = self._residuals()
        q = self.ik.data.qpos[self.ik.qpos_index[:15]]
        free = np.ones(len(self.columns), bool)
        step = np.zeros(len(self.columns))
        for _ in range(4):
            a = jac[:, free]
            step[:] = 0.0
            step[free] = np.linalg.solve(a.T @ a + self.params.damping * np.eye(a.shape[1]),
                                         a.T @ err)
            joint_step = step[6:]
            pushing = ((q + joint_step < self.low) & (joint_step < 0)) | \
                      ((q + joint_step > self.high) & (joint_step > 0))
            if not pushing[free[6:]].any():
                break
            free[6:] &= ~pushing
            clamp = np.clip(q, self.low, self.high) - q
            err = err - jac[:, 6:][:, ~free[6:]] @ clamp[~free[6:]]
            step[6:][~free[6:]] = clamp[~free[6:]]
        largest = float(np.abs(step).max())
        if largest > self.params.max_step:
            step *= self.params.max_step / largest
        dq = np.zeros(self.ik.model.nv)
        dq[self.columns] = step
        mujoco.mj_integratePos(self.ik.model, self.ik.data.qpos, dq, 1.0)
        mujoco.mj_kinematics(self.ik.model, self.ik.data)
        mujoco.mj_comPos(self.ik.model, self.ik.data)
        return largest

    def _solve(self, arm_targets: np.ndarray) -> None:
        kin = self.ik
        kin.data.qpos[:] = self.q
        kin.data.qpos[kin.qpos_index[15:]] = arm_targets
        mujoco.mj_kinematics(kin.model, kin.data)
        mujoco.mj_comPos(kin.model, kin.data)
        for _ in range(self.params.iterations):
            if self._ik_step() < self.params.converged:
                break
        self.q = kin.data.qpos.copy()
        self.planned_com = kin.com()[:2] - self.ankles

    def _balance_force(self, balance: Balance) -> np.ndarray:
        """The horizontal force on the centre of mass that pulls it back to the plan
        (stance frame, N)."""
        p = self.params
        force = np.zeros(3)
        force[:2] = -self.mass * (p.com_kp * balance.offset + p.com_kd * balance.rate)
        return force

    def _feedforward(self, *forces: np.ndarray) -> list[np.ndarray]:
        """For each of ``forces``, the torques on the 15 leg and waist joints that hold
        the planned posture against gravity and push its centre of mass with that force:
        the generalized force of gravity and of the force at the centre of mass, less
        the foot wrenches that carry both (gravity and the Jacobians computed once).

        Of those wrenches, the one with the least weighted norm, moments counting
        WRENCH_MOMENT_WEIGHT times forces: weight off the middle, and a sideways push,
        are carried by shifting load between the feet, not by ankle moments, which a
        sole 36 mm either side of the ankle cannot hold (the feet roll over). A push
        along the feet has no such pair and goes to the ankles' pitch."""
        kin = self.ik
        d = kin.data
        d.qvel[:] = 0.0
        mujoco.mj_rne(kin.model, d, 0, d.qfrc_bias)  # qvel = 0: gravity alone
        com_t = kin.com_jacobian().T
        contact = np.vstack([np.vstack(kin.body_jacobian(body)) for body in kin.feet])  # 12 x nv
        base = contact[:, :6].T  # 6 x 12: how the foot wrenches act on the free base
        scaled = base * WRENCH_SCALE  # W^-1/2 folded in: f = W^-1 A^T (A W^-1 A^T)^-1 b
        gram = scaled @ scaled.T
        torques = []
        for force in forces:
            load = d.qfrc_bias + com_t @ force
            wrench = WRENCH_SCALE * (scaled.T @ np.linalg.solve(gram, load[:6]))
            torques.append((load - contact.T @ wrench)[self.lower])
        return torques

    def measure(self, state: RobotState) -> Balance:
        """The measured centre of mass against the measured feet (joint angles, IMU
        orientation and rates only)."""
        kin = self.measured
        self._measure(state)
        origin, yaw = self._feet_frame()
        to_feet = _rot_z(yaw).T
        ankles = [to_feet @ (kin.position(b) - origin) for b in kin.feet]
        com = to_feet @ (kin.com() - origin)
        offset = com[:2] - self.planned_com
        qvel = np.zeros(kin.model.nv)
        qvel[3:6] = state.base_ang_vel
        qvel[kin.dof_index] = state.joint_vel
        jac = kin.com_jacobian() - 0.5 * sum(kin.body_jacobian(b)[0] for b in kin.feet)
        rate = (to_feet @ (jac @ qvel))[:2]
        capture = com[:2] + rate / np.sqrt(GRAVITY / max(com[2], 0.1))
        yaws = [heading(kin.rotation(b)) for b in kin.feet]
        soles = [ankle[:2] + _rot_z(foot_yaw - yaw)[:2, :2] @ corner
                 for ankle, foot_yaw in zip(ankles, yaws, strict=True)
                 for corner in SOLE_CORNERS]
        inside = inside_convex_hull(capture, np.array(soles), CAPTURE_MARGIN)
        splay = abs(float(np.angle(np.exp(1j * (yaws[0] - yaws[1])))))
        width, stagger = abs(ankles[0][1] - ankles[1][1]), abs(ankles[0][0] - ankles[1][0])
        placed = (STANCE_WIDTH[0] <= width <= STANCE_WIDTH[1] and stagger <= STANCE_STAGGER
                  and splay <= STANCE_SPLAY)
        flat = (abs(ankles[0][2] - ankles[1][2]) <= FEET_LEVEL
                and all(kin.rotation(b)[2, 2] >= np.cos(FEET_LEVEL_ANGLE) for b in kin.feet))
        return Balance(offset, rate, capture, inside, placed, flat)

    def command(self, state: RobotState, command: StanceGoal,
                arm_targets: np.ndarray) -> tuple[np.ndarray, Balance]:
        """Servo targets for the 15 leg and waist joints (IK posture plus feedforward
        and balance torques as target offsets), and the balance they were computed on."""
        self._approach(command)
        balance = self.measure(state)  # against the posture the servos were last sent
        self._solve(arm_targets)
        hold, torque = self._feedforward(np.zeros(3), self._balance_force(balance))
        self.effort = float((np.abs(hold) / self.effort_limit).max())
        target = self.q[self.ik.qpos_index[:15]] + torque / self.kp
        return target, balance
