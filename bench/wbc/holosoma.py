"""holosoma G1 locomotion policies (PyPI holosoma-inference 0.1.3): the embedded
default's walking (``bench.wbc.embedded`` pairs them with a standing controller).

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
trained on (unmasked, it drifts, slows down and falls; DESIGN.md). Neither model has
a height or torso command.

The package ships two G1 models with this contract, ``ppo`` and ``fastsac``; each is
the better of the two at its job (docs/wbc.md). fastsac walks: backward with the arms
reaching forward it covered 2.3 m in 10 s, ppo 0.15 m. ppo balances: standing while
the arms track random targets in front of the body, it fell in 0 of the 8 seeds
hardest for it and fastsac in 6, so the embedded default uses it to come to rest
after a walk or a push before its standing controller takes over.
"""

from __future__ import annotations

import json

import numpy as np
import onnxruntime

from bench import assets
from bench.robot import constants as c
from bench.wbc.base import BaseCommand, RobotState

BALANCE_MODEL = "ppo_g1_29dof.onnx"  # steps back into balance (zero command)
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


class HolosomaPolicies:
    """The two holosoma G1 models with their shared action history and gait phase.

    ``step`` runs one of them and returns the 29 joint targets; the embedded default
    (``bench.wbc.embedded``) walks with WALK_MODEL and steps back into balance with
    BALANCE_MODEL. Both see the same history and phase, so a switch between them is
    seamless.
    """

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
        self.reset()

    def reset(self) -> None:
        """Zero the action history and restart the gait phase."""
        self.last_action = np.zeros(29)
        self.phase = np.array([0.0, np.pi])
        self.standing = False

    def adopt(self, lower_targets: np.ndarray) -> None:
        """Take another controller's leg and waist targets as this policy's last action,
        so that its first step after a hand-over continues from them."""
        self.last_action[LOWER] = (lower_targets - DEFAULT_ANGLES[LOWER]) / ACTION_SCALE

    def clip_command(self, cmd: BaseCommand) -> tuple[np.ndarray, float]:
        """(vx, vy) and wz clipped to the models' command ranges."""
        lin = np.clip([cmd.vx, cmd.vy], self.lin_range[:, 0], self.lin_range[:, 1])
        return lin, float(np.clip(cmd.wz, *self.ang_range))

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

    def step(self, state: RobotState, cmd: BaseCommand, model: str) -> np.ndarray:
        """One step of ``model`` on the clipped velocity command: the 15 leg and waist
        targets. The arms belong to the manipulation policy and are never shown."""
        lin, ang = self.clip_command(cmd)
        self._update_phase(lin, ang)
        obs = self.observation(state, lin, ang)
        session = self.sessions[model]
        action = session.run(None, {session.get_inputs()[0].name: obs[None]})[0][0]
        self.last_action = np.clip(action, -ACTION_CLIP, ACTION_CLIP).astype(np.float64)
        return (DEFAULT_ANGLES + ACTION_SCALE * self.last_action)[LOWER]
