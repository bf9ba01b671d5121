"""holosoma G1 locomotion policy (PyPI holosoma-inference 0.1.3): the embedded default.

Contract (checked against the package's own inference code and the ONNX metadata):

* input ``actor_obs`` [1, 100], output ``action`` [1, 29], motor order;
* observation terms concatenated in sorted name order: actions (29),
  base_ang_vel x 0.25 (3), command_ang_vel (1), command_lin_vel (2), cos_phase (2),
  dof_pos - default (29), dof_vel x 0.05 (29), projected_gravity (3), sin_phase (2);
* target = default + 0.25 * clip(action, +-100); the clipped action is fed back;
* gait phase: period 1 s at 50 Hz (step 2 pi / 50), starting at (0, pi); held at
  (pi, pi) while both command norms are below 0.01, reset to (0, pi) when motion starts;
* kp and kd from the model's metadata; default angles from the package's G1 config.

The manipulation policy owns the arms, so the arm entries of the observation are
masked: the arm positions are the locomotion policy's own arm targets (default +
0.25 * its last arm actions, which nothing executes) and the arm velocities are zero.
The policy then never sees the manipulation arm poses, which lie outside what it was
trained on (unmasked, it drifts, slows down and falls; DESIGN.md).
It has no height or torso-pitch command and ignores them.

The package ships two G1 models with this contract, ``ppo`` and ``fastsac``. bench runs
them as a Balance/Walk pair, switching on the command norm like GR00T-WBC: ``ppo``
while |(vx, vy, wz)| < 0.05, ``fastsac`` otherwise. Each is the better of the two at
its job (docs/wbc.md): standing while the arms track random targets in front of the
body, ppo fell in 0 of the 8 seeds hardest for it and fastsac in 6; walking backward
with the arms reaching forward, fastsac covered 2.3 m in 10 s and ppo 0.15 m. Both
see the same executed-action history and gait phase, so a switch is seamless.
"""

from __future__ import annotations

import json

import numpy as np
import onnxruntime

from bench import assets
from bench.robot import constants as c
from bench.wbc.base import BaseCommand, LowerBodyTargets, RobotState
from bench.wbc.groot import WALK_THRESHOLD

BALANCE_MODEL = "ppo_g1_29dof.onnx"  # runs while |(vx, vy, wz)| < WALK_THRESHOLD
WALK_MODEL = "fastsac_g1_29dof.onnx"
MODEL_FILES = (BALANCE_MODEL, WALK_MODEL)
ACTION_SCALE = 0.25
ACTION_CLIP = 100.0
GAIT_PERIOD = 1.0  # s
CONTROL_RATE = 50.0  # Hz
STAND_THRESHOLD = 0.01  # command norm below which the gait phase is held
# holosoma-inference's G1 default angles (rad), motor order.
DEFAULT_ANGLES = np.array(
    [-0.312, 0.0, 0.0, 0.669, -0.363, 0.0] * 2 + [0.0] * 3
    + [0.2, 0.2, 0.0, 0.6, 0.0, 0.0, 0.0] + [0.2, -0.2, 0.0, 0.6, 0.0, 0.0, 0.0])
ARM_SLICE = slice(15, 29)
LOWER = slice(0, 15)


def _session(model_file: str) -> onnxruntime.InferenceSession:
    """A single-threaded CPU session on one of the package's G1 models, run once on
    zeros so that its first real step (on hardware, the first walking command) does
    not pay onnxruntime's first-run set-up."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(assets.asset_path("holosoma", model_file)),
                                           options, providers=["CPUExecutionProvider"])
    inp = session.get_inputs()[0]
    session.run(None, {inp.name: np.zeros((1, inp.shape[1]), np.float32)})
    return session


class HolosomaController:
    """The holosoma locomotion policies (Balance and Walk) driving legs and waist."""

    name = "holosoma_g1"
    ignored_commands: tuple[str, ...] = ("height", "torso_pitch")

    def __init__(self) -> None:
        self.sessions = {name: _session(name) for name in MODEL_FILES}
        metas = [self.sessions[name].get_modelmeta().custom_metadata_map for name in MODEL_FILES]
        for name, meta in zip(MODEL_FILES, metas, strict=True):
            if json.loads(meta["dof_names"]) != list(c.JOINTS):
                raise ValueError(f"{name}: dof_names differ from the Unitree motor order")
            for key in ("kp", "kd", "command_ranges"):
                if meta[key] != metas[0][key]:
                    raise ValueError(f"{name}: {key} differs from {MODEL_FILES[0]}'s")
        meta = metas[0]
        self.kp = np.array(json.loads(meta["kp"]))
        self.kd = np.array(json.loads(meta["kd"]))
        ranges = json.loads(meta["command_ranges"])
        self.lin_range = np.array([ranges["lin_vel_x"], ranges["lin_vel_y"]])
        self.ang_range = np.array(ranges["ang_vel_yaw"])
        self.phase_dt = 2 * np.pi / (CONTROL_RATE * GAIT_PERIOD)
        self.reset(None)

    def reset(self, state: RobotState | None) -> None:
        """Zero the action history and restart the gait phase."""
        self.last_action = np.zeros(29)
        self.phase = np.array([0.0, np.pi])
        self.standing = False

    def _update_phase(self, lin: np.ndarray, ang: float) -> None:
        self.phase = np.fmod(self.phase + self.phase_dt + np.pi, 2 * np.pi) - np.pi
        if np.linalg.norm(lin) < STAND_THRESHOLD and abs(ang) < STAND_THRESHOLD:
            self.phase = np.array([np.pi, np.pi])
            self.standing = True
        elif self.standing:
            self.phase = np.array([0.0, np.pi])
            self.standing = False

    def observation(self, state: RobotState, lin: np.ndarray, ang: float) -> np.ndarray:
        """The 100-value actor observation, terms in sorted name order, arms masked."""
        joint_pos = state.joint_pos.copy()
        joint_vel = state.joint_vel.copy()
        joint_pos[ARM_SLICE] = (DEFAULT_ANGLES + ACTION_SCALE * self.last_action)[ARM_SLICE]
        joint_vel[ARM_SLICE] = 0.0
        terms = {
            "actions": self.last_action,
            "base_ang_vel": state.base_ang_vel * 0.25,
            "command_ang_vel": np.array([ang]),
            "command_lin_vel": lin,
            "cos_phase": np.cos(self.phase),
            "dof_pos": joint_pos - DEFAULT_ANGLES,
            "dof_vel": joint_vel * 0.05,
            "projected_gravity": state.projected_gravity,
            "sin_phase": np.sin(self.phase),
        }
        return np.concatenate([terms[name] for name in sorted(terms)]).astype(np.float32)

    def command(self, state: RobotState, cmd: BaseCommand,
                arm_targets: np.ndarray) -> LowerBodyTargets:
        """One policy step: leg and waist targets with the model's gains. The arms belong
        to the manipulation policy: ``arm_targets`` is not shown to this policy."""
        lin = np.clip([cmd.vx, cmd.vy], self.lin_range[:, 0], self.lin_range[:, 1])
        ang = float(np.clip(cmd.wz, *self.ang_range))
        self._update_phase(lin, ang)
        obs = self.observation(state, lin, ang)
        walking = float(np.linalg.norm([*lin, ang])) >= WALK_THRESHOLD
        session = self.sessions[WALK_MODEL if walking else BALANCE_MODEL]
        action = session.run(None, {session.get_inputs()[0].name: obs[None]})[0][0]
        self.last_action = np.clip(action, -ACTION_CLIP, ACTION_CLIP).astype(np.float64)
        target = DEFAULT_ANGLES + ACTION_SCALE * self.last_action
        return LowerBodyTargets(position=target[LOWER], kp=self.kp[LOWER], kd=self.kd[LOWER])
