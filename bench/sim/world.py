"""One MuJoCo world holding the G1: PD torques at the physics rate, cameras on demand.

A control step is ``SUBSTEPS`` physics steps of ``TIMESTEP`` (20 x 1 ms = 0.02 s,
50 Hz). The seed's accounting counts 10 env steps per control step.
"""

from __future__ import annotations

import mujoco
import numpy as np

from bench.robot import assembly
from bench.robot import constants as c
from bench.wbc.base import RobotState

TIMESTEP = 0.001  # s, physics substep
SUBSTEPS = 20  # physics steps per control step
CONTROL_DT = TIMESTEP * SUBSTEPS  # s
ENV_STEPS_PER_CONTROL_STEP = 10  # the seed's budget unit
CAMERA_SIZE = 84  # px, square
BASE_TARGET = "floating_base_target"  # mocap body the floating base's pelvis is welded to
# s, time constant of that weld: the fastest MuJoCo allows at TIMESTEP (two steps). The
# pelvis then sits within 0.1 mm of its target standing and trails it by 1.5 mm at
# 0.5 m/s (measured).
BASE_WELD_TIMECONST = 2 * TIMESTEP


def fast_render_settings(spec: mujoco.MjSpec, size: int = CAMERA_SIZE) -> None:
    """Offscreen settings that make small CPU renders cheap: buffer of the image size,
    no multisampling, no shadows, one quad per box face."""
    spec.visual.global_.offwidth = size
    spec.visual.global_.offheight = size
    spec.visual.quality.offsamples = 0
    spec.visual.quality.shadowsize = 0
    spec.visual.quality.numquads = 1


def gripper_targets(grippers: np.ndarray) -> np.ndarray:
    """Finger servo targets (m) for gripper commands in 0 (open) .. 1 (closed): a full
    close aims GRIPPER_SQUEEZE past the closed position, so a grasp holds at the
    force limit."""
    return np.clip(grippers, 0.0, 1.0) * (c.GRIPPER_TRAVEL + c.GRIPPER_SQUEEZE)


class G1World:
    """The compiled model and data of one scene, with indices into the robot's joints."""

    def __init__(self, spec: mujoco.MjSpec | None = None, camera_size: int = CAMERA_SIZE,
                 floating_base: bool = False, render_size: int | None = None):
        """``floating_base`` welds the pelvis to a mocap target (``step``'s ``base_pose``)
        and makes the legs non-colliding; ``render_size`` enlarges the offscreen buffer
        for external views."""
        spec = spec or assembly.robot_spec()
        fast_render_settings(spec, max(camera_size, render_size or 0))
        if floating_base:
            _disable_leg_collisions(spec)
            _add_base_target(spec)
        self.model = spec.compile()
        self.data = mujoco.MjData(self.model)
        m = self.model
        self.qpos_index = np.array([m.joint(j).qposadr[0] for j in c.JOINTS])
        self.qvel_index = np.array([m.joint(j).dofadr[0] for j in c.JOINTS])
        self.motor_index = np.array([m.actuator(j.removesuffix("_joint")).id for j in c.JOINTS])
        self.gripper_qpos = np.array([m.joint(j).qposadr[0] for j in c.GRIPPER_JOINTS])
        self.gripper_qvel = np.array([m.joint(j).dofadr[0] for j in c.GRIPPER_JOINTS])
        self.gripper_motor = np.array(
            [m.actuator(j.removesuffix("_joint")).id for j in c.GRIPPER_JOINTS])
        free = m.joint(c.FREE_JOINT)
        self.base_qpos = int(free.qposadr[0])
        self.base_qvel = int(free.dofadr[0])
        self.floating_base = floating_base
        self._base_mocap = int(m.body(BASE_TARGET).mocapid[0]) if floating_base else -1
        self._base_target: np.ndarray | None = None  # (x, y, z, yaw) the weld holds
        self._kp = np.zeros(c.NUM_JOINTS)  # servo gains currently in the model
        self._kd = np.zeros(c.NUM_JOINTS)
        self.camera_size = camera_size
        self._renderers: dict[int, mujoco.Renderer] = {}

    def reset_to_keyframe(self) -> None:
        """Put the robot in the keyframe stance, at rest."""
        mujoco.mj_resetData(self.model, self.data)
        self.data.qpos[:] = assembly.keyframe_qpos(self.model)
        self._base_target = None  # the first floating-base step starts where the pelvis is
        if self.floating_base:
            self._set_base_target(self._base_pose())
        mujoco.mj_forward(self.model, self.data)

    def joint_positions(self) -> np.ndarray:
        """The 29 joint angles (rad) in Unitree motor order."""
        return self.data.qpos[self.qpos_index].copy()

    def joint_velocities(self) -> np.ndarray:
        """The 29 joint velocities (rad/s) in Unitree motor order."""
        return self.data.qvel[self.qvel_index].copy()

    def robot_state(self) -> RobotState:
        """The state a lower-body controller sees."""
        q, v = self.data.qpos, self.data.qvel
        b, d = self.base_qpos, self.base_qvel
        return RobotState(joint_pos=q[self.qpos_index].copy(), joint_vel=v[self.qvel_index].copy(),
                          base_pos=q[b:b + 3].copy(), base_quat=q[b + 3:b + 7].copy(),
                          base_lin_vel=v[d:d + 3].copy(), base_ang_vel=v[d + 3:d + 6].copy(),
                          time=float(self.data.time))

    def gripper_state(self) -> np.ndarray:
        """[left, right] gripper closure, 0 = open .. 1 = closed."""
        return self.data.qpos[self.gripper_qpos] / c.GRIPPER_TRAVEL

    def step(self, targets: np.ndarray, kp: np.ndarray, kd: np.ndarray,
             grippers: np.ndarray, base_pose: np.ndarray | None = None) -> None:
        """One control step: the PD servos of all 29 joints and the grippers track their
        targets for 20 x 1 ms substeps, torques clipped to the effort limits.

        ``targets``, ``kp``, ``kd`` are in motor order; ``grippers`` is [left, right]
        in 0 (open) .. 1 (closed). In floating-base mode the weld's target moves
        linearly to ``base_pose`` (x, y, z, yaw, level) over the substeps and the weld
        pulls the pelvis along. The weld is a constraint force, so whatever the robot
        holds feels the same accelerations as the hand (setting the pelvis's pose and
        velocity at each substep instead kicked held objects 10 mm/s per substep
        against the hand: a block squeezed at 40 N slid out at 6 cm/s).
        """
        model, data = self.model, self.data
        self._set_gains(kp, kd)
        data.ctrl[self.motor_index] = targets
        data.ctrl[self.gripper_motor] = gripper_targets(grippers)
        if base_pose is None:
            mujoco.mj_step(model, data, nstep=SUBSTEPS)
            return
        goal = np.asarray(base_pose, float)
        start = self._base_target if self._base_target is not None else self._base_pose()
        for k in range(SUBSTEPS):
            self._set_base_target((k + 1) / SUBSTEPS * (goal - start) + start)
            mujoco.mj_step(model, data)
        self._base_target = goal.copy()

    def _set_gains(self, kp: np.ndarray, kd: np.ndarray) -> None:
        """Write the servo gains (motor order) into the model where they changed."""
        if np.array_equal(kp, self._kp) and np.array_equal(kd, self._kd):
            return
        m, idx = self.model, self.motor_index
        m.actuator_gainprm[idx, 0] = kp
        m.actuator_biasprm[idx, 1] = -kp
        m.actuator_biasprm[idx, 2] = -kd
        self._kp, self._kd = np.array(kp, float), np.array(kd, float)

    def _base_pose(self) -> np.ndarray:
        b = self.base_qpos
        w, x, y, z = self.data.qpos[b + 3:b + 7]
        yaw = np.arctan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
        return np.array([*self.data.qpos[b:b + 3], yaw])

    def _set_base_target(self, pose: np.ndarray) -> None:
        half = pose[3] / 2
        self.data.mocap_pos[self._base_mocap] = pose[:3]
        self.data.mocap_quat[self._base_mocap] = [np.cos(half), 0.0, 0.0, np.sin(half)]

    def _renderer(self, size: int) -> mujoco.Renderer:
        if size not in self._renderers:
            self._renderers[size] = mujoco.Renderer(self.model, size, size)
        return self._renderers[size]

    def render_view(self, lookat, distance: float, azimuth: float, elevation: float,
                    size: int) -> np.ndarray:
        """An (H, W, 3) image from a free camera (degrees for the angles)."""
        camera = mujoco.MjvCamera()
        camera.lookat[:] = lookat
        camera.distance, camera.azimuth, camera.elevation = distance, azimuth, elevation
        renderer = self._renderer(size)
        renderer.update_scene(self.data, camera=camera)
        renderer.update_scene(self.data, camera=camera)  # see render(): headlight placement
        return renderer.render().copy()

    def render(self, cameras: tuple[str, ...] = c.CAMERAS, size: int | None = None) -> np.ndarray:
        """Images of the named cameras, (n, 3, H, W) uint8: camera-major, then CHW."""
        size = size or self.camera_size
        if not cameras:
            return np.zeros((0, 3, size, size), np.uint8)
        renderer = self._renderer(size)
        frames = []
        for camera in cameras:
            # The headlight is placed from the scene's camera as it was before the update,
            # so one update leaves it at the previously rendered camera and images would
            # depend on render history. A second update (microseconds) places it here.
            renderer.update_scene(self.data, camera=camera)
            renderer.update_scene(self.data, camera=camera)
            frames.append(renderer.render().transpose(2, 0, 1))
        return np.stack(frames)

    def close(self) -> None:
        """Release the renderers' GL contexts."""
        for renderer in self._renderers.values():
            renderer.close()
        self._renderers.clear()


def _disable_leg_collisions(spec: mujoco.MjSpec) -> None:
    """Make every geom below the hips non-colliding (floating-base mode)."""
    stack = [spec.body(f"{side}_hip_pitch_link") for side in ("left", "right")]
    while stack:
        body = stack.pop()
        for geom in body.geoms:
            geom.contype = 0
            geom.conaffinity = 0
        stack.extend(body.bodies)


def _add_base_target(spec: mujoco.MjSpec) -> None:
    """A mocap body and a stiff weld holding the pelvis on it (floating-base mode)."""
    spec.worldbody.add_body(name=BASE_TARGET, mocap=True)
    weld = spec.add_equality(type=mujoco.mjtEq.mjEQ_WELD, objtype=mujoco.mjtObj.mjOBJ_BODY,
                             name1=c.PELVIS_BODY, name2=BASE_TARGET)
    weld.solref = [BASE_WELD_TIMECONST, 1.0]
    # anchor (3), then the pelvis's pose relative to the target: on it, unturned; full torque
    weld.data[:11] = [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1]
