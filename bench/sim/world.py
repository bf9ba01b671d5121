"""One MuJoCo world holding the G1: PD torques at the physics rate, cameras on demand.

A control step is ``SUBSTEPS`` physics steps of ``TIMESTEP`` (20 x 1 ms = 0.02 s,
50 Hz). The seed's accounting counts 10 env steps per control step.
"""

from __future__ import annotations

import mujoco
import numpy as np

from bench.robot import assembly
from bench.robot import constants as c

TIMESTEP = 0.001  # s, physics substep
SUBSTEPS = 20  # physics steps per control step
CONTROL_DT = TIMESTEP * SUBSTEPS  # s
ENV_STEPS_PER_CONTROL_STEP = 10  # the seed's budget unit
CAMERA_SIZE = 84  # px, square
GRIPPER_KP = 800.0  # N/m, finger position gain
GRIPPER_KD = 20.0  # N s/m


def fast_render_settings(spec: mujoco.MjSpec, size: int = CAMERA_SIZE) -> None:
    """Offscreen settings that make small CPU renders cheap: buffer of the image size,
    no multisampling, no shadows, one quad per box face."""
    spec.visual.global_.offwidth = size
    spec.visual.global_.offheight = size
    spec.visual.quality.offsamples = 0
    spec.visual.quality.shadowsize = 0
    spec.visual.quality.numquads = 1


class G1World:
    """The compiled model and data of one scene, with indices into the robot's joints."""

    def __init__(self, spec: mujoco.MjSpec | None = None, camera_size: int = CAMERA_SIZE):
        spec = spec or assembly.robot_spec()
        fast_render_settings(spec, camera_size)
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
        self.camera_size = camera_size
        self._renderer: mujoco.Renderer | None = None

    def reset_to_keyframe(self) -> None:
        """Put the robot in the keyframe stance, at rest."""
        mujoco.mj_resetData(self.model, self.data)
        self.data.qpos[:] = assembly.keyframe_qpos(self.model)
        mujoco.mj_forward(self.model, self.data)

    def joint_positions(self) -> np.ndarray:
        """The 29 joint angles (rad) in Unitree motor order."""
        return self.data.qpos[self.qpos_index].copy()

    def joint_velocities(self) -> np.ndarray:
        """The 29 joint velocities (rad/s) in Unitree motor order."""
        return self.data.qvel[self.qvel_index].copy()

    def gripper_state(self) -> np.ndarray:
        """[left, right] gripper closure, 0 = open .. 1 = closed."""
        return self.data.qpos[self.gripper_qpos] / c.GRIPPER_TRAVEL

    def step(self, targets: np.ndarray, kp: np.ndarray, kd: np.ndarray,
             grippers: np.ndarray) -> None:
        """One control step: PD torques on all 29 joints and the grippers, recomputed and
        clipped to the effort limits at every 1 ms substep.

        ``targets``, ``kp``, ``kd`` are in motor order; ``grippers`` is [left, right]
        in 0 (open) .. 1 (closed).
        """
        model, data = self.model, self.data
        gripper_target = np.clip(grippers, 0.0, 1.0) * c.GRIPPER_TRAVEL
        for _ in range(SUBSTEPS):
            q, qd = data.qpos[self.qpos_index], data.qvel[self.qvel_index]
            data.ctrl[self.motor_index] = kp * (targets - q) - kd * qd  # clipped by ctrlrange
            data.ctrl[self.gripper_motor] = (
                GRIPPER_KP * (gripper_target - data.qpos[self.gripper_qpos])
                - GRIPPER_KD * data.qvel[self.gripper_qvel])
            mujoco.mj_step(model, data)

    def render(self, cameras: tuple[str, ...] = c.CAMERAS) -> np.ndarray:
        """Images of the named cameras, (n, 3, H, W) uint8: camera-major, then CHW."""
        if self._renderer is None:
            self._renderer = mujoco.Renderer(self.model, self.camera_size, self.camera_size)
        frames = []
        for camera in cameras:
            self._renderer.update_scene(self.data, camera=camera)
            frames.append(self._renderer.render().transpose(2, 0, 1))
        return np.stack(frames)

    def close(self) -> None:
        """Release the renderer's GL context."""
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None
