"""The bridge's logic: the graph's whole-body targets in, one safe LowCmd_ per tick out.

Inputs:

* ``on_lowstate``: the robot's LowState_ (its first mode_machine is kept and copied
  into every LowCmd_), stamped with the caller's monotonic clock;
* ``on_policy``: the manipulation policy's arm targets and gripper closures;
* ``on_wbc``: the lower-body controller's leg and waist targets with their gains.

The policy and WBC heartbeats run on the robot's clock (LowState_.tick, ms), and count
from the oldest request they have not answered (``on_request``, each control step): a
killed node is noticed HEARTBEAT_TIMEOUT after the first request it misses, while a
pause of the bridge itself (no requests) is not blamed on them. On the mock robot that
clock is sim time, so a slow host does not fake silences. The LowState_ heartbeat runs
on the monotonic clock, since the robot's clock stops when its messages do.

Every ``tick`` (500 Hz on the robot) returns the LowCmd_ to send: damping unless
ARMED; when ARMED, the latest targets through the TargetGuard (joint-limit clamp, rate
limit). A heartbeat older than its timeout (policy, WBC, LowState_) turns ARMED into
FAULT, which sends damping until someone disarms or re-arms.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bench.hardware.lowcmd import (
    G1_29DOF_MODE_MACHINE,
    BodyState,
    damping_record,
    lowcmd_record,
)
from bench.hardware.safety import OVERFLOW_LIMIT, Arming, ArmState, Heartbeat, TargetGuard
from bench.robot import constants as c

TICK = 0.002  # s, LowCmd_ period (500 Hz)
HEARTBEAT_TIMEOUT = 0.07  # s of robot time. A killed node misses the next request at
# most one 20 ms control step after the kill; 70 ms later the bridge damps, and the
# robot has the damping command within one 2 ms tick more: within 94 ms of the kill.
LOWSTATE_TIMEOUT = 0.1  # s; the robot sends LowState_ at 500 Hz
MAX_KP = 500.0  # N m/rad, largest stiffness accepted from the graph
MAX_KD = 50.0  # N m s/rad

_LOWER = len(c.LOWER_BODY)


@dataclass
class Tick:
    """What one tick sends, and what happened."""

    cmd: np.ndarray | None  # LowCmd_ record; None until the first LowState_
    grippers: np.ndarray | None  # closures to send (ARMED only), left and right
    events: list[str] = field(default_factory=list)  # clamps and rejections, for the log
    fault: str | None = None  # set on the tick a watchdog turned ARMED into FAULT


class BridgeCore:
    """Targets, watchdogs, arming and the guard, without any middleware."""

    def __init__(self, heartbeat_timeout: float = HEARTBEAT_TIMEOUT,
                 lowstate_timeout: float = LOWSTATE_TIMEOUT,
                 expected_mode_machine: int = G1_29DOF_MODE_MACHINE, dt: float = TICK):
        self.policy = Heartbeat("policy action", heartbeat_timeout, answers=True)
        self.wbc = Heartbeat("WBC targets", heartbeat_timeout, answers=True)
        self.lowstate = Heartbeat("LowState_", lowstate_timeout)
        self.arming = Arming([self.lowstate, self.policy, self.wbc], expected_mode_machine)
        self.guard = TargetGuard(dt)
        self.body: BodyState | None = None
        self.first_mode_machine: int | None = None
        self.lower_q = c.KEYFRAME_JOINTS[:_LOWER].copy()
        self.lower_kp = c.LOWER_BODY_KP.copy()
        self.lower_kd = c.LOWER_BODY_KD.copy()
        self.arm_q = c.KEYFRAME_JOINTS[_LOWER:].copy()
        self.grippers = np.zeros(2)
        self._clamped: list[str] = []
        self.clamp_count = 0  # ticks on which a target was clamped

    @property
    def state(self) -> ArmState:
        """The arming state."""
        return self.arming.state

    def on_lowstate(self, body: BodyState, now: float) -> None:
        """A LowState_ arrived (with a valid CRC)."""
        if self.first_mode_machine is None:
            self.first_mode_machine = body.mode_machine
        self.body = body
        self.lowstate.beat(now)

    @property
    def robot_time(self) -> float | None:
        """The robot's clock (s) at its latest LowState_."""
        return None if self.body is None else self.body.tick / 1000.0

    def _beat(self, heartbeat: Heartbeat) -> None:
        if self.robot_time is not None:  # nothing counts before the robot's first message
            heartbeat.beat(self.robot_time)

    def on_request(self) -> None:
        """A control step's requests (observation, WBC request) went out."""
        if self.robot_time is not None:
            self.policy.expect(self.robot_time)
            self.wbc.expect(self.robot_time)

    def on_policy(self, arm_q: np.ndarray, grippers: np.ndarray) -> None:
        """The policy's 14 arm targets (rad) and 2 gripper closures; raises ValueError on
        a malformed message (which then does not count as a heartbeat)."""
        arm_q, grippers = np.asarray(arm_q, float), np.asarray(grippers, float)
        if arm_q.shape != (len(c.ARMS),) or grippers.shape != (2,):
            raise ValueError(f"policy targets have shapes {arm_q.shape} and {grippers.shape}; "
                             "expected (14,) arm targets and (2,) grippers")
        self.arm_q, self.grippers = arm_q, np.clip(np.nan_to_num(grippers), 0.0, 1.0)
        self._beat(self.policy)

    def on_wbc(self, q: np.ndarray, kp: np.ndarray, kd: np.ndarray) -> None:
        """The WBC's 15 leg/waist targets and gains; raises ValueError on bad gains."""
        q, kp, kd = (np.asarray(v, float) for v in (q, kp, kd))
        if not q.shape == kp.shape == kd.shape == (_LOWER,):
            raise ValueError(f"WBC targets have shapes {q.shape}, {kp.shape}, {kd.shape}; "
                             f"expected ({_LOWER},) each (legs and waist, motor order)")
        if not (np.all(np.isfinite(kp)) and np.all(np.isfinite(kd))
                and np.all((kp >= 0) & (kp <= MAX_KP)) and np.all((kd >= 0) & (kd <= MAX_KD))):
            raise ValueError(f"WBC gains outside kp in [0, {MAX_KP}], kd in [0, {MAX_KD}]")
        self.lower_q, self.lower_kp, self.lower_kd = q, kp, kd
        self._beat(self.wbc)

    def _clocks(self, now: float) -> dict[str, float]:
        robot = self.robot_time if self.robot_time is not None else 0.0
        return {self.lowstate.name: now, self.policy.name: robot, self.wbc.name: robot}

    def arm(self, now: float) -> tuple[bool, str]:
        """Arm on request (``now``: monotonic clock); refused with the reason unless
        everything is alive and the mode_machine matches."""
        mode = self.body.mode_machine if self.body is not None else None
        ok, message = self.arming.arm(self._clocks(now), self.first_mode_machine, mode)
        if ok and self.body is not None:
            self.guard.start(self.body.q)
        return ok, message

    def disarm(self, reason: str = "disarmed on request") -> str:
        """Disarm: damping."""
        return self.arming.disarm(reason)

    def targets(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The latest whole-body (q, kp, kd) in motor order, before the guard."""
        return (np.concatenate([self.lower_q, self.arm_q]),
                np.concatenate([self.lower_kp, c.ARM_KP, c.ARM_KP]),
                np.concatenate([self.lower_kd, c.ARM_KD, c.ARM_KD]))

    def tick(self, now: float) -> Tick:
        """The LowCmd_ for this tick (``now``: monotonic clock)."""
        events: list[str] = []
        fault = self.arming.check(self._clocks(now))
        if self.first_mode_machine is None:
            return Tick(None, None, events, fault)
        if self.arming.state is not ArmState.ARMED:
            return Tick(damping_record(self.first_mode_machine), None, events, fault)
        q, kp, kd = self.targets()
        guarded = self.guard.apply(q)
        if guarded.clamped:
            self.clamp_count += 1
            if guarded.clamped != self._clamped:
                events.append(_clamp_message(q, guarded.clamped))
        if guarded.rejected:
            events.append(f"non-finite targets held at their last value: {guarded.rejected}")
        self._clamped = guarded.clamped
        tau = np.clip(kp * guarded.excess, -c.EFFORT_LIMIT, c.EFFORT_LIMIT)
        return Tick(lowcmd_record(self.first_mode_machine, guarded.q, kp, kd, tau),
                    self.grippers.copy(), events)


def _clamp_message(q: np.ndarray, joints: list[str]) -> str:
    parts = []
    for name in joints:
        i = c.joint_index(name)
        low, high = c.JOINT_LIMITS[i]
        parts.append(f"{name} {q[i]:.3f} rad outside [{low:.3f}, {high:.3f}]")
    return ("target clamped to the joint limits: " + ", ".join(parts)
            + f" (an excess up to {OVERFLOW_LIMIT} rad goes on as feedforward torque, "
            "kp x excess)")
