"""The embedded default lower-body controller (backend ``holosoma_g1``): holosoma's
walking and balance policies, paired with a model-based standing controller that
tracks the height and torso commands they lack.

Like GR00T-WBC's pair it switches on the velocity command's norm at WALK_THRESHOLD.
Below it the robot stands, in one of two ways:

* **balance**: holosoma's ``ppo`` model, for the default stance command (0.74 m,
  torso upright). It holds its own posture (pelvis at about 0.764 m), steps when
  pushed and gives way to sustained pushes from the hands, and every scripted expert
  that stands upright was tuned on it;
* **stand**: ``bench.wbc.stance`` tracks any other command: pelvis height and torso
  pitch, roll and yaw, within the reachable ranges of ``constants.STANCE_*``, with
  the legs compensating for the arms' targets.

Above it, **walk**: holosoma's ``fastsac`` model follows (vx, vy, wz) at its own
height. Hand-overs:

* walk <-> balance: seamless (both holosoma models share history and phase);
* balance -> stand: at least BALANCE_MIN_STEPS after the last walk or push, once both
  feet have been down with the capture point inside them, the pelvis turning slower
  than SETTLED_ANG_VEL and the centre of mass moving slower than SETTLED_COM_RATE
  over the feet for STILL_STEPS in a row, the stance engages from the measured
  posture; the
  targets and gains blend over BLEND_STEPS while the goal ramps to the command. A
  step can leave the feet wider, staggered or splayed beyond what a stance is built
  on (``stance.STANCE_WIDTH`` and friends): the robot then steps in place for one
  gait period (``fastsac`` at RESTEP_COMMAND, 2 cm/s) and settles again;
* stand -> balance: when the command returns to the default stance (blended), or at
  once when a push carries the capture point off the soles, which no stance without
  a step can recover from;
* stand -> walk: the stance first brings the goal to within WALK_POSTURE_TOLERANCE of
  holosoma's own posture (WALK_POSTURE, at the stance's rates: from a 0.5 m crouch
  about 1 s), then the targets and gains blend over BLEND_STEPS.
"""

from __future__ import annotations

import enum

import numpy as np

from bench.config import ControllerConfig
from bench.robot import constants as c
from bench.wbc.base import BaseCommand, LowerBodyTargets, RobotState
from bench.wbc.groot import WALK_THRESHOLD
from bench.wbc.holosoma import BALANCE_MODEL, LOWER, WALK_MODEL, HolosomaPolicies
from bench.wbc.stance import Balance, StanceController, StanceGoal

BLEND_STEPS = 15  # control steps (0.3 s) over which targets and gains cross-fade
BALANCE_MIN_STEPS = 10  # control steps on ppo before the stance may take over
STILL_STEPS = 10  # consecutive still control steps the stance waits for
UNCAPTURABLE_STEPS = 2  # control steps in a row with the capture point off the soles
SETTLED_ANG_VEL = 0.3  # rad/s, pelvis angular speed below which the body is settled
SETTLED_COM_RATE = 0.05  # m/s, centre-of-mass speed over the feet below which it is
# The command ppo serves: the default stance (m, rad), matched within DEFAULT_TOLERANCE.
DEFAULT_STANCE = StanceGoal(height=0.74, pitch=0.0, roll=0.0, yaw=0.0)
DEFAULT_TOLERANCE = 1e-3
# Stepping in place to bring misplaced feet back under the body: the walking model with
# a command just above holosoma's gait threshold, for one gait period.
RESTEP_COMMAND = BaseCommand(vx=0.02)
RESTEP_STEPS = 50
# holosoma's own standing posture (ppo, zero command, keyframe arms: pelvis 0.764 m,
# torso pitch 0.02 rad): the stance goal a walk starts from.
WALK_POSTURE = StanceGoal(height=0.76, pitch=0.0, roll=0.0, yaw=0.0)
# A walk starts from any stance this close to it: the blend covers the difference.
WALK_POSTURE_TOLERANCE = np.array([0.03, 0.05, 0.05, 0.05])  # m, rad, rad, rad


class Mode(enum.Enum):
    """What drives the legs."""

    BALANCE = "balance"
    STAND = "stand"
    WALK = "walk"


def stance_goal(cmd: BaseCommand) -> StanceGoal:
    """The stance's goal from a base command."""
    return StanceGoal(cmd.height, cmd.torso_pitch, cmd.torso_roll, cmd.torso_yaw)


def is_default_stance(cmd: BaseCommand) -> bool:
    """The command asks for the default stance (served by ppo)."""
    error = np.abs(stance_goal(cmd).as_array() - DEFAULT_STANCE.as_array())
    return bool(np.all(error <= DEFAULT_TOLERANCE))


class EmbeddedController:
    """The embedded default: holosoma's balance and walking, and a standing controller
    for the height and torso commands (see the module docstring)."""

    name = "holosoma_g1"

    def __init__(self) -> None:
        self.policies = HolosomaPolicies()
        self.stance = StanceController()
        self.reset(None)

    def limitations(self, config: ControllerConfig) -> list[str]:
        """What the record says about the commands it follows."""
        low, high = c.STANCE_HEIGHT_RANGE
        out = [f"holosoma_g1 stands at its own posture (pelvis about 0.76 m, not "
               f"{DEFAULT_STANCE.height} m) for the default stance command"]
        for name, official, reached, unit in (
                ("height", config.height_range, (low, high), "m"),
                ("torso_pitch", config.torso_pitch_range, c.STANCE_PITCH_RANGE, "rad")):
            if name == "torso_pitch" and not config.pitch_command:
                continue
            within = (f"within {reached[0]}-{reached[1]} {unit} of the official "
                      f"{official[0]}-{official[1]} {unit}, "
                      if tuple(official) != reached else "")
            out.append(f"holosoma_g1 tracks the {name} command {within}while standing only "
                       "(walking keeps holosoma's own posture)")
        return out

    def reset(self, state: RobotState | None) -> None:
        """Start on ppo, as after a walk."""
        self.policies.reset()
        self.mode = Mode.BALANCE
        self.mode_steps = 0
        self.blend = 0  # control steps of cross-fade left
        self.blend_from = Mode.BALANCE
        self.restep = 0  # control steps of stepping in place left
        self.still_steps = 0  # consecutive still control steps on ppo

    def command(self, state: RobotState, cmd: BaseCommand,
                arm_targets: np.ndarray) -> LowerBodyTargets:
        """Targets for one control step (see the module docstring)."""
        walking = float(np.linalg.norm(cmd.velocity)) >= WALK_THRESHOLD
        outputs: dict[Mode, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

        def drive(mode: Mode) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            if mode not in outputs:
                outputs[mode] = self._drive(mode, state, cmd, arm_targets, walking)
            return outputs[mode]

        if self.mode is Mode.STAND:
            drive(Mode.STAND)
        self._next_mode(state, cmd, walking, arm_targets, outputs)
        self.mode_steps += 1
        position, kp, kd = drive(self.mode)
        if self.blend:
            weight = self.blend / (BLEND_STEPS + 1)  # of the mode being left
            old = drive(self.blend_from)
            position, kp, kd = (weight * a + (1 - weight) * b
                                for a, b in zip(old, (position, kp, kd), strict=True))
            self.blend -= 1
        return LowerBodyTargets(position=position, kp=kp, kd=kd,
                                info={"mode": float(list(Mode).index(self.mode))})

    def _drive(self, mode: Mode, state: RobotState, cmd: BaseCommand, arms: np.ndarray,
               walking: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One step of the controller of ``mode``: leg and waist targets and gains."""
        if mode is Mode.STAND:
            goal = WALK_POSTURE if walking else stance_goal(cmd)
            position, self.balance = self.stance.command(state, goal, arms)
            return position, self.stance.kp, self.stance.kd
        if mode is Mode.WALK:
            position = self.policies.step(state, cmd, WALK_MODEL)
        elif self.restep:
            position = self.policies.step(state, RESTEP_COMMAND, WALK_MODEL)
            self.restep -= 1
        else:
            position = self.policies.step(state, cmd, BALANCE_MODEL)
        return position, self.policies.kp[LOWER], self.policies.kd[LOWER]

    def _switch(self, mode: Mode, blend: bool) -> None:
        self.blend_from, self.mode = self.mode, mode
        self.mode_steps = 0
        self.blend = BLEND_STEPS if blend else 0
        self.still_steps = 0
        self.uncapturable = 0

    def _next_mode(self, state: RobotState, cmd: BaseCommand, walking: bool,
                   arms: np.ndarray,
                   outputs: dict[Mode, tuple[np.ndarray, np.ndarray, np.ndarray]]) -> None:
        """The mode machine (see the module docstring)."""
        if self.mode is Mode.STAND:
            stance_targets = outputs[Mode.STAND][0]
            self.uncapturable = 0 if self.balance.capturable else self.uncapturable + 1
            if self.uncapturable >= UNCAPTURABLE_STEPS:
                self.policies.adopt(stance_targets)
                self._switch(Mode.BALANCE, blend=False)
            elif walking and self._at_walk_posture():
                self.policies.adopt(stance_targets)
                self._switch(Mode.WALK, blend=True)
            elif not walking and is_default_stance(cmd):
                self.policies.adopt(stance_targets)
                self._switch(Mode.BALANCE, blend=True)
        elif self.mode is Mode.WALK:
            if not walking:
                self._switch(Mode.BALANCE, blend=False)
        elif walking:
            self.restep = 0
            self._switch(Mode.WALK, blend=False)
        elif ((balance := self._settled(state)) is not None and not is_default_stance(cmd)
              and not self.restep):
            if balance.feet_placed:
                self.stance.engage(state, arms)
                self._switch(Mode.STAND, blend=True)
            else:
                self.restep = RESTEP_STEPS
                self.mode_steps = 0

    def _at_walk_posture(self) -> bool:
        error = np.abs(self.stance.goal.as_array() - WALK_POSTURE.as_array())
        return bool(np.all(error <= WALK_POSTURE_TOLERANCE))

    def _settled(self, state: RobotState) -> Balance | None:
        """The measured balance once both feet have been down with the capture point well
        inside them, for STILL_STEPS control steps in a row, BALANCE_MIN_STEPS after a
        switch (else None). Counted on every
        balance step, so a command that leaves the default stance after a quiet spell
        (an env's warmup) engages the stance at once, before the arms it brings along
        can set ppo swaying."""
        balance = self.stance.measure(state)
        still = (balance.feet_flat and balance.capturable
                 and float(np.linalg.norm(state.base_ang_vel)) < SETTLED_ANG_VEL
                 and float(np.linalg.norm(balance.rate)) < SETTLED_COM_RATE)
        self.still_steps = self.still_steps + 1 if still else 0
        settled = self.mode_steps >= BALANCE_MIN_STEPS and self.still_steps >= STILL_STEPS
        return balance if settled else None
