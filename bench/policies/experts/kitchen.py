"""Experts for the kitchen-counter tasks (bench.tasks.kitchen).

Shared habits: the robot squares up to the kitchen (yaw 0) before it works, the hands
stay in front of the chest, and pushing is done by walking with the arms held still
(the lower-body controller carries the hands; the arm joints keep their angles).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from bench.policies.experts.kinematics import SIDES, rot_x, rot_z, rotation
from bench.policies.experts.script import (
    KEYFRAME_ARMS,
    TURN_SPEED,
    WALK_GAIN,
    WALK_SETTLE,
    WALK_SPEED,
    WALK_TOLERANCE,
    Expert,
    Pose,
)
from bench.tasks import kitchen_scene as ks

LEVEL = np.eye(3)  # pinch frame: hand pointing forward, jaw horizontal
FINGERTIP = 0.03  # m, the closed fingers' tips ahead of the pinch site
BAR_RADIUS = 0.011  # m, drawer and door handle bars
DRAWER_HANDLE_Y = 0.06  # m, the pushing fists either side of the drawer handle's middle
STANCE_ASIDE = 0.08  # m, the pelvis walks in on a line this far right of the drawer handle
APPROACH = 0.50  # m, it first walks to there, this far before the handle
HAND_AHEAD = 0.30  # m, the raised hand this far ahead of the pelvis before the walk in
BAR_GRIP_Y = 0.03  # m, the gripping hand this far from the drawer handle's middle
DRAW_SPEED = 0.2  # m/s, walking backward with the drawer in hand
DRAWN = 0.97  # normalized: the drawer is drawn this far open
DRAW_STEPS = 400  # control steps at most for it
ALIGNED = 0.008  # m, hand error counted as arrived before and at the drawer handle
ALIGN_STEPS = 60  # control steps at most for it
DOOR_STANCE = 0.48  # m, the pelvis this far before the glass doors' hinges
DOOR_PUSH_Z = 1.25  # m, height where the hands push the glass doors (handles at 1.22)
OUTSIDE_LOW = 1.0  # m, the hands go outside the doors below them (bottom edge 1.13 m)
SWING_IN = 0.17  # m, the inward push runs this far before the hinges
SWING_FROM, SWING_TO = 0.45, 0.12  # m, from and to these distances from the middle
# (the open doors stand 0.30 m either side of it)
SWING_STEPS = 90  # control steps for it
FIST_REACH = 0.36  # m, hands this far ahead of the pelvis for the final push
FIST_Y = 0.10  # m, either side of the middle (near the doors' free edges)
DOOR_PUSH_SPEED = 0.2  # m/s
PUSH_SPEED = 0.35  # m/s, walking command while pushing something shut
STEER_GAIN = 1.5  # 1/s (and rad/s per rad), lateral and heading correction while pushing
COAST = 0.03  # m, how far the pelvis goes on after a stop command
SHUT = 0.03  # normalized: a pushed part this close to 0 counts as shut
# Opening a glass door: the hand grips its handle bar pointing HANDLE_PITCH above level
# (jaw across y), pulls it round the hinge to PULL_TO, lets go and sweeps it open from
# inside along SWEEP_X.
HANDLE_PITCH = np.radians(45)
GRIP_POSE = rotation([np.cos(HANDLE_PITCH), 0.0, np.sin(HANDLE_PITCH)])
ARM_UP = np.array([-1.18, 0.0, -0.07, 0.43, 0.04, -0.07, 0.37])  # rad, left arm raised ahead
MIRROR = np.array([1.0, -1.0, -1.0, 1.0, -1.0, 1.0, -1.0])  # left arm angles to the right's
CHEST = (0.27, 0.18, 1.0)  # m, a hand ahead of, beside the pelvis and up, before walking in
HANDLE_STANCE = 0.42  # m, the pelvis this far before the hinges
STANCE_TOLERANCE = (0.03, 0.05)  # m, rad
STEP_BACK = 0.15  # m, the robot steps back this far to lower a raised hand
MIN_WALK = 0.1  # m/s: the embedded WBC does not step for smaller commands
RAISE_STEPS = 100  # control steps for a joint-space raise (a fast one turns the robot)
HANDLE_STEPS = 120  # control steps for the joint-space move before a handle
PRE_GRASP = 0.08  # m, the hand comes to the handle from this far before it
ON_BAR = 0.015  # m, the pinch site this close to the handle's axis (horizontally) grips it
HANDLE_TRIES = 3  # approaches to a handle per pull, until the jaw holds the bar
PULL_TO = np.radians(75)  # the door follows to 44-66 degrees (the bar slips in the jaw)
PULL_STEPS = 130
PULL_BACK = 0.10  # m, the sweep's stance is this far behind the pull's
BACK_OFF = 0.08  # m, the released hand draws back this far
SWEEP_X = 0.78  # m, the hand sweeps outward along this line (the hinges are at 0.93)
SWEEP_PAST = 0.01  # m, to this far beyond the hinge's y
SWEEP_STEPS = 100
STILL_SPEED = 0.03  # m/s, pelvis speed below which the standing body counts as still
STILL_TURN = 0.05  # rad/s, and its turning rate
STILL_STEPS = 10  # control steps in a row of that
STILL_MAX = 150  # control steps at most of waiting for it
GRIPPER_STOPPED = 0.034  # m, finger travel short of closed (0.038) when the bar is in the jaw
SLIPPED = 0.04  # m, the pinch site this far from the bar's axis while pulling: it slipped
SWEEPABLE = 0.45  # normalized (40 degrees): a door this far open lets the fist round its edge
DOOR_TRIES = 3  # grips and pulls of a door at most
SERVO_TOLERANCE = 0.008  # m, hand error counted as arrived
SERVO_STEPS = 80  # control steps at most for it
DOOR_WIDTH = ks.WALL_HALF_WIDTH - 0.003  # m, hinge to free edge


def side_sign(side: str) -> float:
    """+1 for the left hand, -1 for the right."""
    return 1.0 if side == "left" else -1.0


class KitchenExpert(Expert):
    """An Expert with the geometry helpers the kitchen experts share."""

    def geom_pos(self, geom: str) -> np.ndarray:
        """World position of a named geom's centre."""
        return self.kin.data.geom_xpos[self.kin.model.geom(geom).id].copy()

    def ahead(self, forward: float, left: float, z: float) -> np.ndarray:
        """The world point ``forward`` ahead of and ``left`` left of the pelvis, at height
        ``z``."""
        x, y, yaw = self.kin.pelvis_pose()
        return np.array([x + np.cos(yaw) * forward - np.sin(yaw) * left,
                         y + np.sin(yaw) * forward + np.cos(yaw) * left, z])

    def arm_ahead(self, side: str, forward: float, left: float, z: float) -> np.ndarray:
        """The ``side`` arm's angles (inverse kinematics from its commanded angles) that put
        its hand at the point ``ahead(forward, left, z)``, the hand's orientation free."""
        return self.kin.solve(side, self.ahead(forward, left, z), None, self.arm[side],
                              iterations=200)[0]

    def opening(self, part: str) -> float:
        """Normalized position of a drawer or door in the world state (0 closed)."""
        joint = self.kin.model.joint(ks.joint_name(part))
        return float(np.clip(self.kin.data.qpos[joint.qposadr[0]] / joint.range[1], 0.0, 1.0))

    def station_keeping(self, stance: np.ndarray) -> np.ndarray:
        """The base command (vx, vy, wz, body frame) that holds the pelvis at ``stance``
        (x, y, yaw) against what the arms push on: proportional, zero (so the balance
        policy stands) while the pose is within WALK_TOLERANCE."""
        x, y, yaw = self.kin.pelvis_pose()
        dx, dy = stance[0] - x, stance[1] - y
        dyaw = float(np.arctan2(np.sin(stance[2] - yaw), np.cos(stance[2] - yaw)))
        if np.hypot(dx, dy) < WALK_TOLERANCE[0] and abs(dyaw) < WALK_TOLERANCE[1]:
            return np.zeros(3)
        cos, sin = np.cos(yaw), np.sin(yaw)
        body = np.clip(WALK_GAIN * np.array([cos * dx + sin * dy, -sin * dx + cos * dy]),
                       -WALK_SPEED, WALK_SPEED)
        return np.array([*body, np.clip(WALK_GAIN * dyaw, -TURN_SPEED, TURN_SPEED)])

    def settle(self, stance: np.ndarray) -> Iterator[None]:
        """Walk back to ``stance`` if the pelvis has left it by more than
        STANCE_TOLERANCE (real steps: ``walk_to`` with MIN_WALK; the hand targets are
        dropped, the arms keep their angles), then stand until the body is still."""
        x, y, yaw = self.kin.pelvis_pose()
        turn = float(np.arctan2(np.sin(stance[2] - yaw), np.cos(stance[2] - yaw)))
        if np.hypot(stance[0] - x, stance[1] - y) > STANCE_TOLERANCE[0] or \
                abs(turn) > STANCE_TOLERANCE[1]:
            yield from self.walk_to(stance[0], stance[1], stance[2], tolerance=STANCE_TOLERANCE,
                                    min_speed=MIN_WALK)
        yield from self.be_still()

    def be_still(self) -> Iterator[None]:
        """Stand (zero base command: the balance policy holds its gait phase) until the
        pelvis has moved slower than STILL_SPEED and turned slower than STILL_TURN for
        STILL_STEPS control steps in a row, at most STILL_MAX steps. Small station-keeping
        commands instead start the gait and rock the body 2-5 cm sideways."""
        self.velocity = np.zeros(3)
        still = 0
        for _ in range(STILL_MAX):
            assert self.world is not None
            speed = float(np.hypot(*self.world.qvel[:2]))
            still = still + 1 if speed < STILL_SPEED and abs(self.world.qvel[5]) < STILL_TURN \
                else 0
            if still >= STILL_STEPS:
                return
            yield

    def walk_straight(self, speed: float, y: float, until: Callable[[], bool],
                      max_steps: int = 200, settle: int = WALK_SETTLE,
                      hands: Callable[[], dict[str, Pose]] | None = None) -> Iterator[None]:
        """Walk along x (forward for a positive ``speed`` in m/s, backward for a
        negative one) at heading 0, keeping the pelvis on the line ``y``, until
        ``until()`` holds; then stop and stand ``settle`` steps. The arms keep still,
        or, with ``hands``, follow the world-frame targets it gives at every step
        (so the body's sway does not reach what the hands hold)."""
        self.hand.clear()
        for _ in range(max_steps):
            if until():
                break
            if hands is not None:
                self.hand = hands()
                self.learning = False
            _, py, yaw = self.kin.pelvis_pose()
            lateral = float(np.clip(STEER_GAIN * (y - py), -0.1, 0.1))
            self.velocity = np.array([speed * np.cos(yaw) + lateral * np.sin(yaw),
                                      -speed * np.sin(yaw) + lateral * np.cos(yaw),
                                      np.clip(-STEER_GAIN * yaw, -0.4, 0.4)])
            yield
        self.velocity = np.zeros(3)
        yield from self.wait(settle)

    def walk_x(self, x: float, y: float) -> Iterator[None]:
        """Walk straight (heading 0) until the pelvis is at ``x``, less the distance the
        robot coasts after the stop command."""
        sign = 1.0 if x > self.kin.pelvis_pose()[0] else -1.0
        yield from self.walk_straight(
            sign * WALK_SPEED, y, lambda: sign * (x - self.kin.pelvis_pose()[0]) <= COAST)


class DrawerTopClose(KitchenExpert):
    """Raise both fists to the handle's height, in front of the handle, then walk
    forward with the arms still until the fists have pushed the drawer shut."""

    def script(self) -> Iterator[None]:
        handle = self.geom_pos("drawer_top_handle")
        reach = min(0.25, handle[0] - self.kin.pelvis_pose()[0] - BAR_RADIUS - FINGERTIP - 0.03)
        x = self.ahead(reach, 0.0, handle[2])[0]
        fists = {side: (np.array([x, handle[1] + sign * DRAWER_HANDLE_Y, handle[2]]), LEVEL)
                 for side, sign in (("left", 1.0), ("right", -1.0))}
        for side in fists:
            self.gripper[side] = 1.0
        yield from self.move(fists, 40)
        yield from self.walk_straight(PUSH_SPEED, handle[1],
                                      lambda: self.opening("drawer_top") <= SHUT)


class WallCupboardClose(KitchenExpert):
    """Close the open glass doors in two pushes. The robot stands before the wall
    cabinet; its closed hands go outside the doors below their bottom edges, rise,
    and push inward in straight lines, each swinging its door to about 35 degrees
    (position-only inverse kinematics: an orientation target locks the arms up as the
    hands come toward the middle). Then the fists come before the doors' front faces,
    near their free edges, and the robot walks forward, the fists going with the pelvis
    in x and holding their y and z in the world, until both doors are shut."""

    def script(self) -> Iterator[None]:
        hinges = {s: self.kin.body_pos(d) for s, d in zip(SIDES, ks.WALL_DOORS, strict=True)}
        mid = (hinges["left"][1] + hinges["right"][1]) / 2
        swing_x = hinges["left"][0] - SWING_IN
        yield from self.walk_x(hinges["left"][0] - DOOR_STANCE, mid)
        for side in SIDES:
            self.gripper[side] = 1.0
        stance = self.kin.pelvis_pose()
        stance[2] = 0.0

        def line(y: float, z: float) -> dict[str, Pose]:
            return {s: (np.array([swing_x, mid + side_sign(s) * y, z]), None) for s in SIDES}

        yield from self.move(line(SWING_FROM, OUTSIDE_LOW), 35)
        yield from self.move(line(SWING_FROM, DOOR_PUSH_Z), 20)
        for _ in self.move(line(SWING_TO, DOOR_PUSH_Z), SWING_STEPS, contact=True):
            self.velocity = self.station_keeping(stance)
            yield
        self.velocity = np.zeros(3)

        def fists() -> dict[str, Pose]:  # x with the pelvis, y and z fixed in the world
            x = self.kin.pelvis_pose()[0] + FIST_REACH
            return {s: (np.array([x, mid + side_sign(s) * FIST_Y, DOOR_PUSH_Z]), None)
                    for s in SIDES}

        yield from self.move(fists(), 30)
        yield from self.walk_straight(
            DOOR_PUSH_SPEED, mid, lambda: max(self.opening(d) for d in ks.WALL_DOORS) <= SHUT,
            hands=fists)


class WallCupboardOpen(KitchenExpert):
    """Open the glass doors one after the other (the right one first), each with the hand
    on its side. The robot raises that hand before it walks in (a hand raised at the
    counter catches under its top), grips the door's handle bar with the hand pointing
    HANDLE_PITCH above level (the natural pose of an arm raised to the 1.22 m handle: a
    level or upward-pointing hand runs into the wrist limits), turns the handle round
    the hinge, lets go, and sweeps the door open from inside with a fist. Long arm moves
    go in joint space to a solution seeded from ARM_UP, slowly (a fast raise turns the
    embedded WBC's stance). The base regains its stance before the hand comes to the
    handle (real steps, then a zero command until the body is still: the small
    commands of station keeping start the gait and rock it sideways), stands still
    while it grips and pulls (station keeping jerks the hand off the bar), and holds
    the stance while the fist sweeps the door. The oracle checks each step: the jaw
    must close on the bar (else the hand backs off and comes again), a bar that slips
    out during the pull ends it, and a door not yet SWEEPABLE is gripped and pulled
    again from where it stands. Hand offsets are set only by ``servo_still`` (the hand
    held still before and at the handle): the shared continuous learning, fed by the
    arm's lag on these long moves, drifts."""

    def _learn_offsets(self) -> None:
        """No continuous learning (see the class docstring)."""

    def script(self) -> Iterator[None]:
        hinges = {s: self.kin.body_pos(d) for s, d in zip(SIDES, ks.WALL_DOORS, strict=True)}
        mid = (hinges["left"][1] + hinges["right"][1]) / 2
        x = hinges["left"][0] - HANDLE_STANCE
        for k, (side, door) in enumerate((("right", "wall_door_right"),
                                          ("left", "wall_door_left"))):
            other = "right" if side == "left" else "left"
            if k:  # the other hand comes down away from the counter
                yield from self.raise_hand(other)
                yield from self.walk_to(x - STEP_BACK, mid, 0.0, tolerance=STANCE_TOLERANCE,
                                        min_speed=MIN_WALK)
            # (on the first pass the left arm already hangs: the robot stands 2 s)
            yield from self.joints({other: KEYFRAME_ARMS[other]}, RAISE_STEPS)
            yield from self.raise_hand(side)
            yield from self.walk_to(x, mid, 0.0, tolerance=STANCE_TOLERANCE, min_speed=MIN_WALK)
            stance = np.array([*self.kin.pelvis_pose()[:2], 0.0])
            yield from self.open_door(side, door, hinges[side], mid, stance)

    def arm_solution(self, side: str, pos: np.ndarray, rot: np.ndarray | None,
                     seed: np.ndarray) -> np.ndarray:
        """Arm angles for a pinch pose, inverse kinematics from ``seed`` (that arm's
        angles)."""
        q, _ = self.kin.solve(side, pos, rot, seed, iterations=200)
        return q

    def raise_hand(self, side: str) -> Iterator[None]:
        """Raise a hand to CHEST, pointing HANDLE_PITCH up, in joint space."""
        forward, aside, z = CHEST
        target = self.ahead(forward, side_sign(side) * aside, z)
        seed = ARM_UP * (1.0 if side == "left" else MIRROR)
        yield from self.joints({side: self.arm_solution(side, target, GRIP_POSE, seed)},
                               RAISE_STEPS)

    def hold(self, stance: np.ndarray, motion: Iterator[None]) -> Iterator[None]:
        """Run ``motion`` while the base holds ``stance`` (``station_keeping``)."""
        for _ in motion:
            self.velocity = self.station_keeping(stance)
            yield
        self.velocity = np.zeros(3)

    def servo_still(self, side: str, tolerance: float = SERVO_TOLERANCE) -> Iterator[None]:
        """Servo the hand onto its held target to within ``tolerance`` (at most
        SERVO_STEPS control steps)."""
        return self.servo(side, tolerance, SERVO_STEPS)

    def handle_pose(self, side: str, door: str) -> tuple[np.ndarray, np.ndarray]:
        """Where the door's handle bar is now, and the grip orientation turned with the
        door."""
        turn = rot_z(-side_sign(side) * ks.DOOR_TRAVEL * self.opening(door))
        return self.geom_pos(f"{door}_handle"), turn @ GRIP_POSE

    def bar_in_jaw(self, side: str, door: str) -> bool:
        """Whether the closed jaw holds the handle bar: the pinch site within ON_BAR of the
        bar's axis (horizontally) and the fingers stopped by it short of closing."""
        miss = (self.kin.pinch_pose(side)[0] - self.geom_pos(f"{door}_handle"))[:2]
        finger = self.kin.data.qpos[self.kin.model.joint(f"{side}_gripper_joint").qposadr[0]]
        return bool(np.linalg.norm(miss) < ON_BAR and finger < GRIPPER_STOPPED)

    def open_door(self, side: str, door: str, hinge: np.ndarray, mid: float,
                  stance: np.ndarray) -> Iterator[None]:
        """Grip ``door``'s handle and pull the door round its hinge to PULL_TO, again
        from where it stands if it is not SWEEPABLE yet (the bar slipped or was missed),
        at most DOOR_TRIES times; then sweep it open from inside with the same hand (the
        class docstring says where the base holds ``stance``)."""
        for _ in range(DOOR_TRIES):
            yield from self.take_handle(side, door, stance)
            yield from self.pull(side, door, hinge)
            if self.opening(door) >= SWEEPABLE:
                break
        stance = stance - [PULL_BACK, 0.0, 0.0]  # the door has come toward the robot
        yield from self.hold(stance, self.sweep(side, door, hinge, mid))

    def take_handle(self, side: str, door: str, stance: np.ndarray) -> Iterator[None]:
        """Close the jaw on the door's handle bar, wherever the door stands. A hand at the
        door already (a retry) opens and draws back along its own axis first. The base
        regains ``stance`` and stands still; the hand comes before the bar (joint space
        from a lowered arm), waits there and at the bar until its offset has brought it
        in (``servo_still``), and closes; up to HANDLE_TRIES approaches, until the jaw
        holds the bar (``bar_in_jaw``)."""
        for _ in range(HANDLE_TRIES):
            if side in self.hand:
                pos, rot = self.commanded_pose(side)
                yield from self.grip(side, 0.0)
                yield from self.move({side: (pos - BACK_OFF * rot[:, 0], rot)}, 25)
            yield from self.settle(stance)
            handle, pose = self.handle_pose(side, door)
            pre = handle - PRE_GRASP * pose[:, 0] * [1.0, 1.0, 0.0] / np.hypot(*pose[:2, 0])
            if side in self.hand:
                yield from self.move({side: (pre, pose)}, 30)
            else:
                yield from self.joints(
                    {side: self.arm_solution(side, pre, pose, self.arm[side])}, HANDLE_STEPS)
                self.hand[side] = (pre, pose)
            yield from self.be_still()
            yield from self.servo_still(side)
            yield from self.move({side: (handle, pose)}, 40, contact=True)
            yield from self.be_still()
            yield from self.servo_still(side)
            yield from self.grip(side, 1.0)
            if self.bar_in_jaw(side, door):
                return

    def pull(self, side: str, door: str, hinge: np.ndarray) -> Iterator[None]:
        """Turn the gripped handle round the hinge from where the door stands to PULL_TO,
        the hand turning with the door, and let go; early if the bar has left the jaw
        (the pinch site more than SLIPPED from it horizontally)."""
        sign = side_sign(side)
        pos, rot = self.commanded_pose(side)
        travel = PULL_TO - ks.DOOR_TRAVEL * self.opening(door)
        steps = max(1, int(PULL_STEPS * travel / PULL_TO))
        for k in range(1, steps + 1):
            turn = rot_z(-sign * travel * k / steps)
            self.hand[side] = (hinge + turn @ (pos - hinge), turn @ rot)
            yield
            miss = (self.kin.pinch_pose(side)[0] - self.geom_pos(f"{door}_handle"))[:2]
            if np.linalg.norm(miss) > SLIPPED:
                break
        yield from self.grip(side, 0.0)

    def sweep(self, side: str, door: str, hinge: np.ndarray, mid: float) -> Iterator[None]:
        """Draw the hand off the released handle along the door's outward normal (the
        open jaw still straddles the bar: drawing it straight back would drag the door),
        close it to a fist, bring it round the door's free edge to the inside and sweep
        the door open along SWEEP_X; then draw the fist back off the open door before it
        opens (fingers opening against the door turn the robot)."""
        sign, z = side_sign(side), DOOR_PUSH_Z
        turn = rot_z(-sign * ks.DOOR_TRAVEL * self.opening(door))
        yield from self.move({side: (self.hand[side][0] + turn @ [-BACK_OFF, 0.0, 0.0], None)},
                             25)
        yield from self.grip(side, 1.0, 10)  # a fist: narrower past the door's free edge
        turn = rot_z(-sign * ks.DOOR_TRAVEL * self.opening(door))  # where the door is now
        edge = hinge + turn @ np.array([0.0, -sign * DOOR_WIDTH, 0.0])
        yield from self.move({side: (np.array([edge[0] - BACK_OFF, self.hand[side][0][1], z]),
                                     None)}, 30)
        yield from self.move({side: (np.array([edge[0] - BACK_OFF, mid, z]), None)}, 30)
        yield from self.move({side: (np.array([SWEEP_X, mid, z]), None)}, 30)
        yield from self.move({side: (np.array([SWEEP_X, hinge[1] + sign * SWEEP_PAST, z]), None)},
                             SWEEP_STEPS, contact=True)
        yield from self.wait(20)
        yield from self.move({side: (np.array([SWEEP_X, hinge[1] - sign * BACK_OFF, z]), None)},
                             25)
        yield from self.grip(side, 0.0, 10)


class DrawerTopOpen(KitchenExpert):
    """Grip the top drawer's handle bar in the left hand and walk the drawer open. The
    robot first walks to a stance STANCE_ASIDE to the right of the handle (a hand
    reaches the bar before the body's middle badly: inverse kinematics misses it by 4-5
    cm from a pelvis square before it), raises the hand before the bar, jaw upright (the
    fingers close above and below the bar), and walks in with the arms still until the
    hand is just before the bar (an arm stretched out from a standing robot makes the
    embedded WBC step back and turn, so it is raised first). The hand goes onto the
    bar, waiting before and at it until its learned offset has brought it in line, and
    grips. Then the robot walks backward with the arms still until the drawer is drawn
    open (the stiff pads hold the bar: it does not slip)."""

    def script(self) -> Iterator[None]:
        handle = self.geom_pos("drawer_top_handle")
        line = handle[1] - STANCE_ASIDE
        yield from self.walk_to(handle[0] - APPROACH, line, 0.0, tolerance=STANCE_TOLERANCE,
                                min_speed=MIN_WALK)
        raised = np.array([self.ahead(HAND_AHEAD, 0.0, 0.0)[0], handle[1] + BAR_GRIP_Y,
                           handle[2]])
        jaw = self.easiest("left", raised, (rot_x(np.pi / 2), rot_x(-np.pi / 2)))
        yield from self.move({"left": (raised, jaw)}, 60)
        yield from self.walk_straight(
            WALK_SPEED, line, lambda: self.kin.pinch_pose("left")[0][0] >=
            self.geom_pos("drawer_top_handle")[0] - PRE_GRASP - COAST)
        grip = self.geom_pos("drawer_top_handle") + np.array([0.0, BAR_GRIP_Y, 0.0])
        yield from self.move({"left": (grip - [PRE_GRASP, 0.0, 0.0], jaw)}, 30)
        yield from self.align("left")
        yield from self.move({"left": (grip, jaw)}, 40)
        yield from self.align("left")
        yield from self.grip("left", 1.0)
        yield from self.walk_straight(-DRAW_SPEED, line,
                                      lambda: self.opening("drawer_top") >= DRAWN, DRAW_STEPS)

    def align(self, side: str) -> Iterator[None]:
        """Hold the hand's target until the learned offset has brought the pinch site
        within ALIGNED of it (at most ALIGN_STEPS control steps)."""
        for _ in range(ALIGN_STEPS):
            if np.linalg.norm(self.hand[side][0] - self.kin.pinch_pose(side)[0]) < ALIGNED:
                break
            yield


EXPERTS: dict[str, type[Expert]] = {"drawer_top_close": DrawerTopClose,
                                     "drawer_top_open": DrawerTopOpen,
                                     "wall_cupboard_close": WallCupboardClose,
                                     "wall_cupboard_open": WallCupboardOpen}
# put_cups, the one other kitchen-counter task, has its expert (NEEDS_COMMAND) in
# cabinet_cups.py.
PENDING: dict[str, str] = {}
