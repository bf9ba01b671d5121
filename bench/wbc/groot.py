"""GR00T-WBC Balance/Walk ONNX pair (NVlabs GR00T-WholeBodyControl, decoupled_wbc).

The official backend. The files are under the NVIDIA Open Model License and on no
package registry, so the user supplies them: ``controller.groot_model_dir`` or
``$BENCH_GROOT_WBC_DIR`` must hold ``GR00T-WholeBodyControl-Balance.onnx`` and
``GR00T-WholeBodyControl-Walk.onnx``.

Contract (DESIGN.md section 3):

* one frame is 86 float32: command (vx, vy, wz) x (2, 2, 0.5); base-height command;
  torso roll/pitch/yaw command; pelvis angular velocity (body) x 0.5; projected
  gravity; 29 joint positions minus defaults; 29 joint velocities x 0.05; the previous
  15-value action;
* the input is 6 frames, oldest first, zero-padded at the start: 516 values;
* the 15 actions (legs 0-11, waist 12-14) map to targets 0.25 * action + default, with
  default (-0.1, 0, 0, 0.3, -0.2, 0) per leg and 0 for the waist (and the arms, in the
  observation);
* Balance runs while |(vx, vy, wz)| < 0.05, Walk otherwise;
* the torso command is (roll 0, pitch from the action's torso-pitch slot, yaw 0): the
  upper-body target carries no roll or yaw.
"""

from __future__ import annotations

import os
from collections import deque
from pathlib import Path

import numpy as np
import onnxruntime

from bench.config import ControllerConfig
from bench.robot import constants as c
from bench.wbc.base import BaseCommand, LowerBodyTargets, RobotState

BALANCE_FILE = "GR00T-WholeBodyControl-Balance.onnx"
WALK_FILE = "GR00T-WholeBodyControl-Walk.onnx"
ENV_VAR = "BENCH_GROOT_WBC_DIR"
FRAME_SIZE = 86
HISTORY = 6
NUM_ACTIONS = 15
ACTION_SCALE = 0.25
WALK_THRESHOLD = 0.05  # |(vx, vy, wz)| at or above which Walk runs
COMMAND_SCALE = np.array([2.0, 2.0, 0.5])
ANG_VEL_SCALE = 0.5
JOINT_VEL_SCALE = 0.05
DEFAULT_ANGLES = np.array([-0.1, 0.0, 0.0, 0.3, -0.2, 0.0] * 2 + [0.0] * 17)  # (29,) rad
KP = c.LOWER_BODY_KP
KD = c.LOWER_BODY_KD


class GrootFilesMissingError(FileNotFoundError):
    """The user has not supplied the GR00T-WBC ONNX pair."""


def model_dir(configured: str | None) -> Path:
    """The folder holding the ONNX pair; raises GrootFilesMissingError saying how to supply it."""
    folder = configured or os.environ.get(ENV_VAR)
    where = (f"in {folder}" if folder else
             f"(neither controller.groot_model_dir nor ${ENV_VAR} is set)")
    if folder and all((Path(folder) / name).is_file() for name in (BALANCE_FILE, WALK_FILE)):
        return Path(folder)
    raise GrootFilesMissingError(
        f"GR00T-WBC ONNX files not found {where}. Download {BALANCE_FILE} and {WALK_FILE} "
        "from NVlabs GR00T-WholeBodyControl (decoupled_wbc; NVIDIA Open Model License, Git "
        f"LFS), put them in one folder and set ${ENV_VAR} or controller.groot_model_dir to it.")


def _session(path: Path) -> onnxruntime.InferenceSession:
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


class GrootController:
    """GR00T-WBC: Balance and Walk policies with a shared 6-frame history."""

    name = "groot_wbc_g1"

    def __init__(self, folder: str | None = None):
        root = model_dir(folder)
        self.balance = _session(root / BALANCE_FILE)
        self.walk = _session(root / WALK_FILE)
        self.files = (root / BALANCE_FILE, root / WALK_FILE)
        self.reset(None)

    def limitations(self, config: ControllerConfig) -> list[str]:
        """None: the official backend follows every base command."""
        return []

    def reset(self, state: RobotState | None) -> None:
        """Clear the history and the previous action."""
        self.history: deque[np.ndarray] = deque(
            [np.zeros(FRAME_SIZE, np.float32)] * HISTORY, maxlen=HISTORY)
        self.last_action = np.zeros(NUM_ACTIONS)
        self.active = "balance"

    def frame(self, state: RobotState, cmd: BaseCommand) -> np.ndarray:
        """One 86-value observation frame."""
        return np.concatenate([
            cmd.velocity * COMMAND_SCALE,
            [cmd.height],
            [0.0, cmd.torso_pitch, 0.0],
            state.base_ang_vel * ANG_VEL_SCALE,
            state.projected_gravity,
            state.joint_pos - DEFAULT_ANGLES,
            state.joint_vel * JOINT_VEL_SCALE,
            self.last_action,
        ]).astype(np.float32)

    def command(self, state: RobotState, cmd: BaseCommand,
                arm_targets: np.ndarray) -> LowerBodyTargets:
        """One policy step of Balance or Walk."""
        self.history.append(self.frame(state, cmd))
        walking = float(np.linalg.norm(cmd.velocity)) >= WALK_THRESHOLD
        self.active = "walk" if walking else "balance"
        session = self.walk if walking else self.balance
        inputs = np.concatenate(self.history)[None]
        self.last_input = inputs  # kept for inspection and tests
        action = session.run(None, {session.get_inputs()[0].name: inputs})[0].reshape(-1)
        self.last_action = action[:NUM_ACTIONS].astype(np.float64)
        target = ACTION_SCALE * self.last_action + DEFAULT_ANGLES[:NUM_ACTIONS]
        return LowerBodyTargets(position=target, kp=KP.copy(), kd=KD.copy(),
                                info={"walk": float(walking)})
