"""Draft expert for stack_blocks (bench.tasks.tabletop): three blocks carried to the far
table and stacked on the green pad (below the bar: PENDING, docs/experts.md).

Grip. The blocks (5 cm cubes) fit the Dex1-1's open jaw (7.6 cm): the hand comes down
over a block pointing down (leaning up to 60 degrees toward its far side when it lies
beyond the down-pointing reach) with the jaw across two opposite faces, closes, lifts
it straight up and raises it, tracked, to the carry pose: level, pointing ahead, the
jaw across the body. Held across by friction the block stays (the pads' stiff
contacts). The carrying hand keeps its pose in the pelvis frame and travels with the
body, walking included.

Trips. The right hand takes the middle block and the left hand the left one (each
from a stance that puts the block WORK_AHEAD ahead, walking only when the grasp is out
of reach); the robot steps back from the table, side-steps 1.5 m and steps up to the
far table; the right block goes on the pad, the left one on it; the robot goes back
the same way, the right hand takes the third block and stacks it on top. To place, the
block rises over the stack before the stance, comes (tracked, in the level carrying
grip) CLEARANCE and then HOVER over its support, its position is corrected closed loop,
it is lowered to RELEASE_GAP over the support and let go; the open jaw slides off
backward and rises. A block gripped pointing down is upright in the level grip, so it
is set down without turning the hand (tracked, the quarter turn back to pointing down
swung the block 15-25 cm aside).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

import numpy as np

from bench.policies.experts.kinematics import rot_z
from bench.policies.experts.script import KEYFRAME_ARMS, Expert, min_jerk
from bench.policies.experts.tabletop import (
    STANCE_MIN_SPEED,
    STANCE_TOLERANCE,
    TableTopExpert,
    side_sign,
)
from bench.tasks.props import TABLE_TOP
from bench.tasks.tabletop import BLOCK_HALF, BLOCKS

DOWN = np.array([0.0, 0.0, -1.0])
UP = -DOWN
GRASP_ABOVE = 0.015  # m, pinch site above the block's centre: the fingertips, 3 cm past
# it, clear the table by 1 cm (lower, they press on it and the embedded WBC turns the body)
TILTS = np.radians([0.0, 20.0, 40.0, 60.0])  # the gripping hand leans this far to the far side
CLEARANCE = 0.08  # m, a joint-space reach ends this far above its pose
APPROACH = 0.07  # m, the open jaw comes down onto a block from this far above (its
# fingertips 3 cm over the block: lower, the reach's sway knocks the block)
LIFT = 0.10  # m, a gripped block rises this far before the carry
LIFT_STEPS = 30  # control steps for that lift
CARRY = np.array([0.30, 0.20, 0.83])  # m, a carried block's centre in the pelvis frame
TAKE_ATTEMPTS = 3
IN_HAND = 0.06  # m, a block's centre this near the pinch site is in the jaw
HELD_ABOVE = 0.02  # m, and this far above its place on a table
OVER_STEPS = 40  # control steps for the carried block's move over its place
RAISE_STEPS = 25  # control steps for raising a carried block before the stance
CARRY_STEPS = 40  # control steps for the raise to the carry pose
WORK_AHEAD = 0.32  # m, a block or the stack this far ahead of the pelvis when worked on
WORK_ASIDE = 0.14  # m, and this far toward the working hand
WORK_LIMIT = 0.22  # m, pelvis x at most (the hands raised, the thighs meet a table's edge
# at about 0.23; from 0.15 a block 0.55 ahead is out of the left hand's reach)
AISLE_X = 0.0  # m, pelvis x for walks between the tables
AISLE_FROM = 0.3  # m, sideways walks longer than this go through the aisle
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
SETTLE_STEPS = 30  # control steps at most of closed-loop correction
LOWER_STEPS = 20  # control steps for the last HOVER - RELEASE_GAP
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


def carry_rotation(yaw: float, jaw: np.ndarray) -> np.ndarray:
    """The carrying pinch frame of a body facing ``yaw``: level, pointing ahead, the jaw
    across the body (its sense the nearer to ``jaw``)."""
    ahead = np.array([np.cos(yaw), np.sin(yaw), 0.0])
    across = np.array([-np.sin(yaw), np.cos(yaw), 0.0])
    across = across if across @ jaw >= 0 else -across
    return np.column_stack([ahead, across, np.cross(ahead, across)])


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
        # side -> (block, pinch position and rotation in the pelvis frame)
        self.carried: dict[str, tuple[str, np.ndarray, np.ndarray]] = {}

    def _track(self) -> None:
        """Keep each carrying hand at its pose in the pelvis frame (it travels with the
        body, walking included), then track as usual."""
        x, y, yaw = self.kin.pelvis_pose()
        turn = rot_z(yaw)
        for side, (_, local, rot) in self.carried.items():
            self.hand[side] = (np.array([x, y, 0.0]) + turn @ local, turn @ rot)
        super()._track()

    def _learn_offsets(self) -> None:
        """Learn the offsets of the hands that carry nothing: a carrying hand's error is
        mostly the body's sway, and learning it shook a block out of the jaw."""
        carrying = {side: self.hand.pop(side) for side in self.carried if side in self.hand}
        super()._learn_offsets()
        self.hand.update(carrying)

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
        and WORK_ASIDE toward ``side`` (no closer to a table than WORK_LIMIT); through
        the aisle when it is far aside."""
        x = min(point[0] - WORK_AHEAD, WORK_LIMIT)
        y = point[1] - side_sign(side) * WORK_ASIDE
        px, py, yaw = self.kin.pelvis_pose()
        if abs(px - x) < 0.05 and abs(py - y) < 0.05 and abs(yaw) < 0.1:
            return
        yield from self.through_aisle(side, point)
        yield from self.walk_to(x, y, 0.0, max_steps=600, tolerance=STANCE_TOLERANCE,
                                min_speed=STANCE_MIN_SPEED)

    def through_aisle(self, side: str, point: np.ndarray) -> Iterator[None]:
        """If the stance for ``point`` lies more than AISLE_FROM aside, step back from the
        table to AISLE_X and walk along it to the stance's side (walking along a table's
        edge, the embedded WBC drifts into it and stalls there)."""
        y = point[1] - side_sign(side) * WORK_ASIDE
        py = self.kin.pelvis_pose()[1]
        if abs(py - y) <= AISLE_FROM:
            return
        for wx, wy in ((AISLE_X, py), (AISLE_X, y)):
            yield from self.walk_to(wx, wy, 0.0, max_steps=600, tolerance=STANCE_TOLERANCE,
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
        tilt for which the arm reaches it and the approach above it), and the
        inverse-kinematics error left there."""
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
                error = self.solve(side, pos, r)[1]
                if error > best[0]:
                    continue
                error = max(error, self.solve(side, pos - APPROACH * r[:, 0], r)[1])
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
            pos, rot = self.commanded_pose(side)
            yield from self.move({side: (pos + CLEARANCE * UP, rot)}, 20)
            yield from self.ready(side)
        return False

    def holds(self, side: str, block: str) -> bool:
        """Whether ``block`` is in ``side``'s jaw (its centre near the pinch site) and off
        the table (HELD_ABOVE over where it rests)."""
        pinch, centre = self.kin.pinch_pose(side)[0], self.kin.body_pos(block)
        return (float(np.linalg.norm(centre - pinch)) < IN_HAND
                and centre[2] > TABLE_TOP + BLOCK_HALF + HELD_ABOVE)

    def grasp(self, side: str, block: str) -> Iterator[None]:
        """Grip ``block`` from above with ``side``'s hand, lift it LIFT straight up and
        raise it to the carry pose."""
        pos, rot, error = self.grasp_pose(side, block)
        if error > SOLVED:
            yield from self.stance_for(side, self.kin.body_pos(block))
            pos, rot, _ = self.grasp_pose(side, block)
        yield from self.grip(side, 0.0, 5)
        yield from self.reach(side, pos - APPROACH * rot[:, 0], rot)
        pos = self.kin.body_pos(block) + GRASP_ABOVE * UP  # the block, seen again
        yield from self.move({side: (pos - APPROACH * rot[:, 0], rot)}, 10)
        yield from self.move({side: (pos, rot)}, 30, contact=True)
        yield from self.wait(10)
        yield from self.grip(side, 1.0, 12)
        yield from self.wait(5)
        yield from self.move({side: (pos + LIFT * UP, rot)}, LIFT_STEPS, contact=True)
        yield from self.carry(side, block)

    def held(self, side: str, block: str) -> np.ndarray:
        """The block's centre in the frame of ``side``'s pinch site."""
        pinch, rot = self.kin.pinch_pose(side)
        return rot.T @ (self.kin.body_pos(block) - pinch)

    def carry(self, side: str, block: str) -> Iterator[None]:
        """Raise the gripped block to the carry pose (``carry_rotation``): its
        centre at CARRY in the pelvis frame, or else where it is, whichever the arm
        reaches first."""
        held = self.held(side, block)
        x, y, yaw = self.kin.pelvis_pose()
        rot = carry_rotation(yaw, self.commanded_pose(side)[1][:, 1])
        local = CARRY * np.array([1.0, side_sign(side), 1.0])
        for centre in (np.array([x, y, 0.0]) + rot_z(yaw) @ local, self.kin.body_pos(block)):
            pos = centre - rot @ held
            if self.solve(side, pos, rot)[1] < SOLVED:
                break
        # tracked: a joint-space move to another solution branch swings the block off
        yield from self.move({side: (pos, rot)}, CARRY_STEPS, contact=True)
        turn = rot_z(-yaw)
        self.carried[side] = (block, turn @ (pos - [x, y, 0.0]), turn @ rot)

    # ----- stacking ------------------------------------------------------------------------

    def put(self, side: str, block: str, support: np.ndarray) -> Generator[None, None, bool]:
        """Set the carried ``block`` on ``support`` (the middle of the top face below) and
        let go: bring it HOVER over the support from above in the carrying grip, correct
        its position closed loop, lower it to RELEASE_GAP over the support and open the
        jaw; the jaw slides off backward and rises. False (and nothing done) when the
        block was dropped on the way."""
        if not self.holds(side, block):
            return False
        hover = support + (BLOCK_HALF + HOVER) * UP
        yield from self.raise_carried(side, hover[2] + CLEARANCE - self.kin.body_pos(block)[2])
        yield from self.stance_for(side, support)
        rot = self.hand[side][1]
        assert rot is not None  # the carrying hand always has a full rotation
        del self.carried[side]
        held = self.held(side, block)
        yield from self.move({side: (hover + CLEARANCE * UP - rot @ held, rot)}, OVER_STEPS)
        yield from self.move({side: (hover - rot @ held, rot)}, 25)
        yield from self.settle_onto(side, block, hover, SETTLE_STEPS, PLACE_TOLERANCE,
                                    PLACE_GAIN, OFFSET_LIMIT)
        low = support + (BLOCK_HALF + RELEASE_GAP) * UP
        yield from self.move({side: (self.hand[side][0] + low - hover, rot)}, LOWER_STEPS,
                             contact=True)
        yield from self.grip(side, 0.0, 8)
        yield from self.wait(8)
        pos = self.hand[side][0] - APPROACH * rot[:, 0]  # the open jaw slides off backward
        yield from self.move({side: (pos, rot)}, 25)
        yield from self.move({side: (pos + LIFT * UP, rot)}, 25)
        return True

    def raise_carried(self, side: str, height: float) -> Iterator[None]:
        """Raise the carrying hand by ``height`` (if positive) in the pelvis frame, so the
        block and the fingertips clear the stack as the robot walks up."""
        block, local, rot = self.carried[side]
        for k in range(1, RAISE_STEPS + 1):
            lift = max(0.0, height) * min_jerk(k / RAISE_STEPS) * UP
            self.carried[side] = (block, local + lift, rot)
            yield


EXPERTS: dict[str, type[Expert]] = {}
DRAFTS: dict[str, type[Expert]] = {"stack_blocks": StackBlocks}
PENDING: dict[str, str] = {
    "stack_blocks": "draft only (bench.policies.experts:draft), far below 90 %: on official "
                    "seeds 620000-620009 (embedded default, cap raised to 4500 control "
                    "steps) it stacks all three blocks on none, never falling; on "
                    "620000-620002 with the floating base on none. "
                    "On 2 of the 10 the first block is set down on the pad, but the "
                    "second lands 8-12 cm off it; in the rest a take fails three times (3), "
                    "a block falls to the floor during a take (3) or on the way (1), or is "
                    "lost before its put (1) (docs/experts.md)",
}
