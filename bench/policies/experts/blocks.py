"""Draft expert for stack_blocks (bench.tasks.tabletop): three blocks carried to the far
table and stacked on the green pad (below the bar: PENDING, docs/experts.md).

Grip. The blocks (5 cm cubes) fit the Dex1-1's open jaw (7.6 cm): the hand comes down
over a block pointing down (leaning up to 40 degrees toward its far side when it lies
beyond the down-pointing reach) with the jaw across two opposite faces, and closes.
Held across by friction alone a block does not stay: with the full 40 N squeeze and
about 1 N of load on the pads it creeps along them at 2.5-6 cm/s (measured; an
elliptic cone with impratio 10, or 10 noslip iterations, did not stop it), out of the
jaw within a second of the lift. So the hand, right after closing, lifts the block
1.5 cm and turns a quarter about it in joint space (25 control steps) to point along
the jaw's former axis, CARRY_PITCH above level, the jaw standing vertical: the lower
pad then carries the weight, the block slides back against the palm and stays. A
carried block still creeps sideways across the pads when the jaw leans; the hand
rolls against that, closed loop on the block's position (``_track``), and travels with
the pelvis, walking included.

Trips. The right hand takes the middle block and the left hand the left one (each
from a stance that puts the block WORK_AHEAD ahead, walking only when the grasp is out
of reach); the robot side-steps 1.5 m to the far table; the right block goes on the
pad, the left one on it; the robot side-steps back, the right hand takes the third
block and stacks it on top. To place, the block rises over the stack before the
stance (the fingertips reach 6 cm past it), comes HOVER over its support in the level
grip, the hand turns to point down about it (now it creeps toward the fingertips:
the rest is quick), the block's position is corrected closed loop, lowered to
RELEASE_GAP over the support and let go; the empty hand rises and draws back.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

import numpy as np

from bench.policies.experts.kinematics import rot_x, rot_z
from bench.policies.experts.script import KEYFRAME_ARMS, Expert, min_jerk
from bench.policies.experts.tabletop import (
    STANCE_LIMIT,
    STANCE_MIN_SPEED,
    STANCE_TOLERANCE,
    TableTopExpert,
    side_sign,
)
from bench.tasks.tabletop import BLOCK_HALF, BLOCKS

DOWN = np.array([0.0, 0.0, -1.0])
UP = -DOWN
GRASP_ABOVE = 0.007  # m, pinch site above the block's centre (fingertips clear the table)
TILTS = np.radians([0.0, 20.0, 40.0])  # the gripping hand leans this far toward the far side
CLEARANCE = 0.08  # m, a joint-space reach ends this far above its pose
APPROACH = 0.04  # m, the open jaw comes down onto a block from this far above (higher,
# a hand pointing down does not reach as far)
LIFT = 0.10  # m, a gripped block rises this far before the carry
PULL = 0.015  # m, a gripped block first rises this far, quickly (it creeps in the jaw),
PULL_STEPS = 8
CLEAR = 0.05  # m, then this far while the hand turns level about it
CARRY = np.array([0.30, 0.20, 0.83])  # m, a carried block's centre in the pelvis frame
CARRY_PITCH = np.radians(12)  # the carrying hand points this far above level
ROLL_P = 3.0  # rad per metre of the block's offset across the pads: roll against its creep
ROLL_I = 0.02  # rad per metre and control step
ROLL_LIMIT = np.radians(15)
TAKE_ATTEMPTS = 3
IN_HAND = 0.06  # m, a block's centre this near the pinch site is in the jaw
RAISE_STEPS = 25  # control steps for raising a carried block before the stance
STOW = 0.12  # m, an empty hand draws back this far from the stack
CARRY_STEPS = 40  # control steps for the raise to the carry pose
TURN_STEPS = 25  # control steps for the hand's quarter turn between level and down
LIFT_STEPS = 60
HOLD_TEST = 100
WORK_AHEAD = 0.32  # m, a block or the stack this far ahead of the pelvis when worked on
WORK_ASIDE = 0.14  # m, and this far toward the working hand
SOLVED = 0.003  # m, inverse-kinematics error below which a pose counts as reachable
IK_STARTS = 10  # perturbed starts of the multi-start inverse kinematics
IK_SPREAD = 0.4  # rad, their spread
ARM_FORWARD = np.array([-0.8, 0.0, 0.0, 0.3, 0.0, 0.4, 0.2])  # rad, left arm reaching ahead
MIRROR = np.array([1.0, -1.0, -1.0, 1.0, -1.0, 1.0, -1.0])  # left arm angles to the right's
REACH_SPEED = 0.02  # rad per control step, fastest joint of a joint-space reach
PAD_TOP = 0.003  # m, the pad's half thickness
RELEASE_GAP = 0.004  # m, the carried block's bottom above its support when let go
HOVER = 0.06  # m, the block hovers this far above its place before it is lowered
PLACE_GAIN = 0.15  # share of the block's position error added to the hand offset per step
PLACE_TOLERANCE = 0.004  # m
SETTLE_STEPS = 15  # control steps at most of closed-loop correction (the block creeps)
LOWER_STEPS = 15  # control steps for the last HOVER - RELEASE_GAP
OFFSET_LIMIT = 0.10  # m, largest hand offset


def grasp_rotation(yaw: float, tilt: float, forward: np.ndarray) -> np.ndarray:
    """The pinch frame that grips a block across the faces whose normal is at ``yaw``,
    pointing down but leaning ``tilt`` toward ``forward`` (horizontal)."""
    jaw = np.array([np.cos(yaw), np.sin(yaw), 0.0])
    lean = np.array([jaw[1], -jaw[0], 0.0])
    if lean @ forward < 0:
        lean = -lean
    x = np.cos(tilt) * DOWN + np.sin(tilt) * lean
    return np.column_stack([x, jaw, np.cross(x, jaw)])


def block_yaw(rot: np.ndarray) -> float:
    """Yaw of a block's local x axis (the block is upright)."""
    return float(np.arctan2(rot[1, 0], rot[0, 0]))


class StackBlocks(TableTopExpert):
    """Two trips to the far table, stacking the three blocks on the pad."""

    def __init__(self, task: str):
        super().__init__(task)
        rng = np.random.default_rng(0)
        forward = {"left": ARM_FORWARD, "right": ARM_FORWARD * MIRROR}
        self.starts = {side: [KEYFRAME_ARMS[side], forward[side]]
                       + [forward[side] + rng.normal(0.0, IK_SPREAD, 7) for _ in range(IK_STARTS)]
                       for side in forward}

    def reset(self) -> None:
        """Start a new episode (no block carried)."""
        super().reset()
        # side -> (block, pinch pose in the pelvis frame, integral of the block's offset
        # across the pads in m per step)
        self.carried: dict[str, tuple[str, np.ndarray, np.ndarray, float]] = {}

    def _track(self) -> None:
        """Keep each carrying hand at its pose in the pelvis frame (it travels with the
        body, walking included), rolled about its pointing axis against the block's
        sideways creep across the pads, then track as usual."""
        x, y, yaw = self.kin.pelvis_pose()
        turn = rot_z(yaw)
        for side, (block, local, rot, integral) in self.carried.items():
            pinch, actual = self.kin.pinch_pose(side)
            across = float(actual[:, 2] @ (self.kin.body_pos(block) - pinch))
            integral += across
            self.carried[side] = (block, local, rot, integral)
            # the block creeps toward the lower side of the pads: raise the side it is on
            roll = -(ROLL_P * across + ROLL_I * integral) * np.sign(actual[2, 1])
            roll = float(np.clip(roll, -ROLL_LIMIT, ROLL_LIMIT))
            self.hand[side] = (np.array([x, y, 0.0]) + turn @ local,
                               turn @ rot @ rot_x(roll))
        super()._track()

    def script(self) -> Iterator[None]:
        blocks = sorted(BLOCKS, key=lambda b: self.kin.body_pos(b)[1])  # right to left
        first, second, third = blocks[1], blocks[2], blocks[0]  # the two left ones first
        yield from self.ready("left", "right")
        # A block not taken or dropped on the way ends the script (the draft does not
        # recover a dropped block).
        if not ((yield from self.take("right", first))
                and (yield from self.take("left", second))
                and (yield from self.put("right", first, self.pad_top()))
                and (yield from self.put("left", second, self.block_top(first)))
                and (yield from self.take("right", third))
                and (yield from self.put("right", third, self.block_top(second)))):
            return
        x, y, _ = self.kin.pelvis_pose()
        yield from self.walk_to(x - 0.10, y, 0.0, max_steps=100,
                                tolerance=STANCE_TOLERANCE, min_speed=STANCE_MIN_SPEED)

    def pad_top(self) -> np.ndarray:
        """The middle of the pad's top face."""
        return self.kin.body_pos("pad") + PAD_TOP * UP

    def block_top(self, block: str) -> np.ndarray:
        """The middle of a block's top face (the block is upright)."""
        return self.kin.body_pos(block) + BLOCK_HALF * UP

    # ----- walking -------------------------------------------------------------------------

    def stance_for(self, side: str, point: np.ndarray) -> Iterator[None]:
        """Walk, unless already there, so that ``point`` is WORK_AHEAD ahead of the pelvis
        and WORK_ASIDE toward ``side`` (no closer to a table than STANCE_LIMIT)."""
        x = min(point[0] - WORK_AHEAD, STANCE_LIMIT)
        y = point[1] - side_sign(side) * WORK_ASIDE
        px, py, yaw = self.kin.pelvis_pose()
        if abs(px - x) < 0.05 and abs(py - y) < 0.05 and abs(yaw) < 0.1:
            return
        yield from self.walk_to(x, y, 0.0, max_steps=600, tolerance=STANCE_TOLERANCE,
                                min_speed=STANCE_MIN_SPEED)

    # ----- taking a block ------------------------------------------------------------------

    def solve(self, side: str, pos: np.ndarray, rot: np.ndarray) -> tuple[np.ndarray, float]:
        """Arm angles for a pinch pose from several starts (the arm's angles, the
        keyframe, a forward reach and perturbations of it); the best, and its error."""
        best = (self.arm[side], np.inf)
        for start in [self.arm[side], *self.starts[side]]:
            q, error = self.kin.solve(side, pos, rot, start, iterations=60)
            if error < best[1] - 1e-4:
                best = (q, error)
            if error < SOLVED:
                break
        return best

    def grasp_pose(self, side: str, block: str) -> tuple[np.ndarray, np.ndarray, float]:
        """The pinch position and rotation that grip ``block`` from here (the least
        tilt for which the arm reaches it, the approach above it and the level grip
        after it), and the inverse-kinematics error left there."""
        centre = self.kin.body_pos(block)
        px, py, _ = self.kin.pelvis_pose()
        forward = np.array([centre[0] - px, centre[1] - py, 0.0])
        forward /= np.linalg.norm(forward)
        yaw = block_yaw(self.kin.body_rot(block))
        pos = centre + GRASP_ABOVE * UP
        best = (np.inf, np.eye(3))
        for tilt in TILTS:
            for k in range(4):
                r = grasp_rotation(yaw + k * np.pi / 2, tilt, forward)
                q, error = self.solve(side, pos, r)
                if error > best[0]:
                    continue
                held = r.T @ (centre - pos)
                error = max(error, self.solve(side, pos - APPROACH * r[:, 0], r)[1],
                            self.level_grip(side, r, centre + CLEAR * UP, held, q)[1])
                if error < best[0] - 1e-4:
                    best = (error, r)
            if best[0] < SOLVED:
                break
        return pos, best[1], best[0]

    def reach(self, side: str, pos: np.ndarray, rot: np.ndarray) -> Iterator[None]:
        """Bring the hand to the pinch pose from above, in joint space (the tracking
        inverse kinematics loses far poses): first to arm angles near the pose's that put
        the hand CLEARANCE over it (a straight joint-space path to the pose itself can
        sweep through the blocks), then to the pose's; tracked from there."""
        q, _ = self.solve(side, pos, rot)
        high, _ = self.kin.solve(side, pos + CLEARANCE * UP, None, q, iterations=100)
        steps = int(max(20, np.abs(high - self.arm[side]).max() / REACH_SPEED))
        yield from self.joints({side: high}, steps)
        yield from self.joints({side: q}, 25)
        self.hand[side] = (pos, rot)
        self.learning = True
        yield from self.wait(10)

    def take(self, side: str, block: str) -> Generator[None, None, bool]:
        """Grip ``block`` with ``side``'s hand and raise it to the carry pose; again (up to
        TAKE_ATTEMPTS times) while the block is not in the hand. Whether it is."""
        for _ in range(TAKE_ATTEMPTS):
            yield from self.grasp(side, block)
            if self.holds(side, block):
                return True
            self.carried.pop(side, None)
            yield from self.grip(side, 0.0, 8)
            yield from self.ready(side)
        return False

    def holds(self, side: str, block: str) -> bool:
        """Whether ``block`` is in ``side``'s jaw (its centre near the pinch site)."""
        pinch = self.kin.pinch_pose(side)[0]
        return float(np.linalg.norm(self.kin.body_pos(block) - pinch)) < IN_HAND

    def grasp(self, side: str, block: str) -> Iterator[None]:
        """Grip ``block`` from above with ``side``'s hand, turn the hand level (jaw
        vertical) and raise the block to the carry pose."""
        pos, rot, error = self.grasp_pose(side, block)
        if error > SOLVED:
            yield from self.stance_for(side, self.kin.body_pos(block))
            pos, rot, _ = self.grasp_pose(side, block)
        yield from self.grip(side, 0.0, 5)
        yield from self.reach(side, pos - APPROACH * rot[:, 0], rot)
        pos = self.kin.body_pos(block) + GRASP_ABOVE * UP  # the block, seen again
        yield from self.move({side: (pos - APPROACH * rot[:, 0], rot)}, 10)
        yield from self.move({side: (pos, rot)}, 30)
        yield from self.wait(10)
        yield from self.grip(side, 1.0, 12)
        yield from self.move({side: (pos + PULL * UP, rot)}, PULL_STEPS, contact=True)
        pinch = self.kin.pinch_pose(side)[0]
        held = rot.T @ (self.kin.body_pos(block) - pinch)  # block centre in the hand frame
        level, _ = self.level_grip(side, rot, self.kin.body_pos(block) + CLEAR * UP, held,
                                   self.arm[side])
        lifted = self.kin.body_pos(block) + CLEAR * UP
        yield from self.turn(side, lifted - level @ held, level)
        yield from self.carry(side, block, self.kin.body_pos(block) + (LIFT - CLEAR) * UP, held,
                              level)

    def carry(self, side: str, block: str, above: np.ndarray, held: np.ndarray,
              level: np.ndarray) -> Iterator[None]:
        """Raise the gripped block (centre ``held`` in the hand frame) to the carry pose:
        its centre at CARRY in the pelvis frame, or else at ``above``, whichever the arm
        reaches first (in joint space: tracking loses these poses)."""
        x, y, yaw = self.kin.pelvis_pose()
        local = CARRY * np.array([1.0, side_sign(side), 1.0])
        for centre in (np.array([x, y, 0.0]) + rot_z(yaw) @ local, above):
            q, error = self.solve(side, centre - level @ held, level)
            if error < SOLVED:
                break
        yield from self.joints({side: q}, CARRY_STEPS)
        x, y, yaw = self.kin.pelvis_pose()
        turn = rot_z(-yaw)
        self.carried[side] = (block, turn @ (centre - level @ held - [x, y, 0.0]),
                              turn @ level, 0.0)

    def turn(self, side: str, pos: np.ndarray, rot: np.ndarray) -> Iterator[None]:
        """Turn the hand holding a block to the pinch pose in joint space (tracked, a
        quarter turn of the hand can send the arm to another solution branch), then
        hold the pose tracked, without learning an offset."""
        q, _ = self.solve(side, pos, rot)
        yield from self.joints({side: q}, TURN_STEPS)
        self.hand[side] = (pos, rot)
        self.learning = False

    def level_grip(self, side: str, rot: np.ndarray, centre: np.ndarray, held: np.ndarray,
                   ref: np.ndarray) -> tuple[np.ndarray, float]:
        """The grasp ``rot`` (pointing down) turned about its z axis so the hand points
        along one of its two jaw directions, CARRY_PITCH above level, and the jaw
        stands (nearly) vertical: the lower pad carries the block's weight (held across by friction
        alone, a block creeps out of the jaw at 2.5-6 cm/s). Of the two, the one the arm
        reaches (block centre at ``centre``, ``held`` in the hand frame) with the angles
        nearest ``ref``; returns it and its inverse-kinematics error."""
        best = (np.inf, rot, np.inf)
        for sign in (1.0, -1.0):
            level = np.column_stack([sign * rot[:, 1], -sign * rot[:, 0], rot[:, 2]])
            up = CARRY_PITCH if level[2, 1] > 0 else -CARRY_PITCH
            level = level @ rot_z(up)  # fingertips a little up: the block creeps to the palm
            q, error = self.solve(side, centre - level @ held, level)
            cost = float(np.abs(q - ref).max()) + (10.0 if error > SOLVED else 0.0)
            if cost < best[0]:
                best = (cost, level, error)
        return best[1], best[2]

    @staticmethod
    def down_grip(level: np.ndarray) -> np.ndarray:
        """The inverse of ``level_grip``: the hand pointing down, the jaw level."""
        sign = 1.0 if level[2, 1] > 0 else -1.0
        return np.column_stack([-sign * level[:, 1], sign * level[:, 0], level[:, 2]])

    # ----- stacking ------------------------------------------------------------------------

    def put(self, side: str, block: str, support: np.ndarray) -> Generator[None, None, bool]:
        """Set the carried ``block`` on ``support`` (the middle of the top face below) and
        let go: bring it HOVER over the support in the level grip (which reaches no
        lower), turn the hand to point down about the block's centre, correct the
        block's position closed loop (pointing down, the block creeps toward the
        fingertips, so this is brief), lower it to RELEASE_GAP over the support and open
        the jaw; the hand rises. False (and nothing done) when the block was dropped on
        the way."""
        if not self.holds(side, block):
            return False
        hover = support + (BLOCK_HALF + HOVER) * UP
        yield from self.raise_carried(side, hover[2] + CLEARANCE - self.kin.body_pos(block)[2])
        yield from self.stance_for(side, support)
        level = self.hand[side][1]
        assert level is not None  # the carrying hand always has a full rotation
        del self.carried[side]
        held = level.T @ (self.kin.body_pos(block) - self.kin.pinch_pose(side)[0])
        for point, steps in ((hover + CLEARANCE * UP, CARRY_STEPS), (hover, 25)):
            q, _ = self.solve(side, point - level @ held, level)
            yield from self.joints({side: q}, steps)  # from above: the block clears the stack
        held = level.T @ (self.kin.body_pos(block) - self.kin.pinch_pose(side)[0])
        down = self.down_grip(level)
        yield from self.turn(side, hover - down @ held, down)
        yield from self.settle_block(side, block, hover, SETTLE_STEPS)
        low = support + (BLOCK_HALF + RELEASE_GAP) * UP
        yield from self.move({side: (self.hand[side][0] + low - hover, down)}, LOWER_STEPS,
                             contact=True)
        yield from self.grip(side, 0.0, 8)
        yield from self.wait(8)
        yield from self.move({side: (self.hand[side][0] + LIFT * UP, down)}, 25)
        yield from self.stow(side)
        return True

    def raise_carried(self, side: str, height: float) -> Iterator[None]:
        """Raise the carrying hand by ``height`` (if positive) in the pelvis frame, so the
        block and the fingertips ahead of it clear the stack as the robot walks up."""
        block, local, rot, _ = self.carried[side]
        for k in range(1, RAISE_STEPS + 1):
            lift = max(0.0, height) * min_jerk(k / RAISE_STEPS) * UP
            self.carried[side] = (block, local + lift, rot, self.carried[side][3])
            yield

    def stow(self, side: str) -> Iterator[None]:
        """Draw the empty hand (pointing down, over the stack) back toward the body, clear
        of the stack when the robot walks past it."""
        pos, rot = self.hand[side]
        yaw = self.kin.pelvis_pose()[2]
        back = STOW * np.array([-np.cos(yaw), -np.sin(yaw), 0.0])
        yield from self.move({side: (pos + back, rot)}, 30)

    def settle_block(self, side: str, block: str, target: np.ndarray,
                     steps: int) -> Iterator[None]:
        """Hold the hand target while its offset moves by ``block``'s position error from
        ``target``, until within PLACE_TOLERANCE or ``steps`` control steps."""
        self.learning = False
        for _ in range(steps):
            error = target - self.kin.body_pos(block)
            if np.linalg.norm(error) < PLACE_TOLERANCE:
                return
            offset = self.offset[side] + PLACE_GAIN * error
            norm = max(float(np.linalg.norm(offset)), 1e-12)
            self.offset[side] = offset * min(1.0, OFFSET_LIMIT / norm)
            yield


EXPERTS: dict[str, type[Expert]] = {}
DRAFTS: dict[str, type[Expert]] = {"stack_blocks": StackBlocks}
PENDING: dict[str, str] = {
    "stack_blocks": "draft only (bench.policies.experts:draft), far below 90 %: on official "
                    "seeds 620000-620009 it stacks all three blocks on 0 of 10 with the "
                    "embedded default and 2 of 10 on the floating base (3076 and 3489 "
                    "control steps), never falling; the rest knock or drop a block off the "
                    "table or fail a take (docs/experts.md). A block held across by friction "
                    "creeps out of the jaw at 2.5-6 cm/s, so it is carried in a level grip, "
                    "the lower pad under it",
}
