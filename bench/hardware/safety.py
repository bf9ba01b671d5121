"""Safety for commanding a real G1: target clamp and rate limit, heartbeat watchdogs,
and the arming state machine. Pure logic on plain numbers; times are seconds on one
monotonic clock chosen by the caller.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import numpy as np

from bench.robot import constants as c

# Position targets may move at most this fast (rad/s): about the G1 motors' top speed
# (bench.robot.constants.JOINT_VELOCITY_LIMIT), so a target that moves faster is wrong.
# It spreads a jump over a few ticks without adding lag to what the lower-body
# controllers ask while walking (at 10 rad/s the embedded WBC stumbled under a 4 ms
# answer delay on the mock robot; at 40 rad/s it stood).
MAX_TARGET_SPEED = 40.0
# After arming, the command blends from the measured pose into the targets over this
# many seconds (then follows them): the robot eases from where it hangs into the
# controller's pose, as Unitree's deployment examples move to the start pose first.
ARMING_RAMP = 0.5
# A lower-body controller may fold a feedforward torque into its position targets
# (target = q + tau / kp, as bench.wbc.stance does), which near a joint limit puts the
# target beyond it: the crouched ankles and the fully pitched waist do, by up to 0.15
# rad. The guard sends the limit and hands the excess, up to OVERFLOW_LIMIT, on as a
# feedforward torque (kp x excess, the bridge's LowCmd_ tau), so the motor applies the
# torque the simulation applies. A target further out is wrong and is only clamped.
OVERFLOW_LIMIT = 0.25  # rad


@dataclass
class GuardResult:
    """Safe targets for one tick, and what the guard changed."""

    q: np.ndarray  # (29,) rad
    excess: np.ndarray  # (29,) rad beyond a limit that goes on as torque (OVERFLOW_LIMIT)
    clamped: list[str] = field(default_factory=list)  # joints whose target left its limits
    rejected: list[str] = field(default_factory=list)  # joints with a non-finite target


class TargetGuard:
    """Clamps position targets to the joint limits and limits their change per tick.

    ``start(q)`` sets the origin, the measured positions at arming; for ``ramp``
    seconds the command blends linearly from there into the (clamped) targets, then
    follows them. Either way it moves at most ``max_speed``. A non-finite target is
    rejected: the joint keeps its previous target. A target at most OVERFLOW_LIMIT
    beyond its limit keeps that excess (``GuardResult.excess``, zero while easing in)
    for the caller to send as feedforward torque.
    """

    def __init__(self, dt: float, max_speed: float = MAX_TARGET_SPEED,
                 ramp: float = ARMING_RAMP, limits: np.ndarray = c.JOINT_LIMITS):
        if dt <= 0 or max_speed <= 0 or ramp < 0:
            raise ValueError(f"dt ({dt}) and max_speed ({max_speed}) must be positive, "
                             f"ramp ({ramp}) not negative")
        self.max_step = max_speed * dt  # rad per tick
        self.ramp_ticks = max(1, round(ramp / dt))
        self.low, self.high = limits[:, 0], limits[:, 1]
        self.last: np.ndarray | None = None
        self.origin: np.ndarray | None = None
        self.ticks = 0  # since start()

    @property
    def easing(self) -> bool:
        """True while the command still blends in from the pose at arming."""
        return self.ticks < self.ramp_ticks

    def start(self, q_measured: np.ndarray) -> None:
        """Begin from the measured joint positions (clamped into the limits)."""
        self.last = np.clip(np.asarray(q_measured, float), self.low, self.high)
        self.origin, self.ticks = self.last.copy(), 0

    def apply(self, target: np.ndarray) -> GuardResult:
        """The targets to send this tick."""
        if self.last is None:
            raise RuntimeError("TargetGuard.apply before start(q_measured)")
        target = np.asarray(target, float)
        finite = np.isfinite(target)
        wanted = np.where(finite, target, self.last)
        clipped = np.clip(wanted, self.low, self.high)
        outside = finite & (clipped != wanted)
        excess = np.where(outside & (np.abs(wanted - clipped) <= OVERFLOW_LIMIT),
                          wanted - clipped, 0.0)
        goal = clipped
        if self.easing and self.origin is not None:
            excess[:] = 0.0
            self.ticks += 1
            goal = self.origin + self.ticks / self.ramp_ticks * (clipped - self.origin)
        step = np.clip(goal - self.last, -self.max_step, self.max_step)
        self.last = self.last + step
        return GuardResult(q=self.last.copy(), excess=excess,
                           clamped=[c.JOINTS[i] for i in np.flatnonzero(outside)],
                           rejected=[c.JOINTS[i] for i in np.flatnonzero(~finite)])


class Heartbeat:
    """A watchdog: alive while the last beat is at most ``timeout`` seconds old.

    ``answers=True`` makes it the watchdog of a source that answers requests: call
    ``expect`` when a request goes out; it is alive (after its first beat) while its
    oldest unanswered request is at most ``timeout`` old, so a pause of the requester
    itself does not count as the source's silence.
    """

    def __init__(self, name: str, timeout: float, answers: bool = False):
        self.name = name
        self.timeout = timeout
        self.answers = answers
        self.last: float | None = None
        self.waiting_since: float | None = None  # oldest unanswered request

    def expect(self, now: float) -> None:
        """A request went out at ``now``; an answer is due within the timeout."""
        if self.waiting_since is None:
            self.waiting_since = now

    def beat(self, now: float) -> None:
        """Record a sign of life (an answer)."""
        self.last, self.waiting_since = now, None

    def _since(self) -> float | None:
        """Start of the silence that counts (None: none counts)."""
        return self.waiting_since if self.answers else self.last

    def alive(self, now: float) -> bool:
        """True once a beat came, and the silence that counts is within the timeout."""
        since = self._since()
        return self.last is not None and (since is None or now - since <= self.timeout)

    def describe(self, now: float) -> str:
        """Why it is not alive, for logs and refusals."""
        since = self._since()
        if self.last is None or since is None:
            return f"no {self.name} yet"
        return f"{self.name} silent for {now - since:.3f} s (limit {self.timeout:g} s)"


class ArmState(enum.Enum):
    """DISARMED: damping, waiting for an arm request. ARMED: targets go to the motors.
    FAULT: a watchdog fired while armed; damping until disarmed or re-armed."""

    DISARMED = "disarmed"
    ARMED = "armed"
    FAULT = "fault"


Now = float | dict[str, float]  # one time for all watchdogs, or one per watchdog name


def _now(now: Now, watchdog: Heartbeat) -> float:
    return now[watchdog.name] if isinstance(now, dict) else now


class Arming:
    """The arming state machine; starts DISARMED.

    ``arm`` succeeds only when every watchdog is alive and the robot's mode_machine
    is the expected one and has not changed since the first LowState_; ``check``
    turns ARMED into FAULT when a watchdog dies. Watchdogs may run on different clocks:
    ``now`` is then a dict of times by watchdog name.
    """

    def __init__(self, watchdogs: list[Heartbeat], expected_mode_machine: int):
        self.watchdogs = watchdogs
        self.expected_mode_machine = expected_mode_machine
        self.state = ArmState.DISARMED
        self.reason = "starts disarmed"

    def arm(self, now: Now, first_mode_machine: int | None,
            mode_machine: int | None) -> tuple[bool, str]:
        """Try to arm; returns (armed, message)."""
        if first_mode_machine is None or mode_machine is None:
            return False, "refused: no LowState_ from the robot yet"
        if mode_machine != self.expected_mode_machine:
            return False, (f"refused: mode_machine mismatch, the robot reports {mode_machine}, "
                           f"this bridge drives {self.expected_mode_machine} (29-DoF G1); "
                           "check the robot model or set expected_mode_machine")
        if mode_machine != first_mode_machine:
            return False, (f"refused: mode_machine mismatch, the robot reports {mode_machine} "
                           f"but reported {first_mode_machine} at start; restart the bridge")
        dead = self._dead(now)
        if dead:
            return False, "refused: " + "; ".join(dead)
        self.state, self.reason = ArmState.ARMED, "armed on request"
        return True, "armed"

    def disarm(self, reason: str = "disarmed on request") -> str:
        """Go to DISARMED (damping)."""
        self.state, self.reason = ArmState.DISARMED, reason
        return reason

    def check(self, now: Now) -> str | None:
        """While ARMED, fault on the first dead watchdog; returns the fault reason once."""
        if self.state is not ArmState.ARMED:
            return None
        dead = self._dead(now)
        if not dead:
            return None
        self.state, self.reason = ArmState.FAULT, "damping: " + "; ".join(dead)
        return self.reason

    def _dead(self, now: Now) -> list[str]:
        return [w.describe(_now(now, w)) for w in self.watchdogs if not w.alive(_now(now, w))]
