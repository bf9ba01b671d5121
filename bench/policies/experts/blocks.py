"""Expert for stack_blocks (bench.tasks.tabletop): three blocks carried to the far
table and stacked on the green pad.

Grip. The blocks (5 cm cubes) fit the Dex1-1's open jaw (7.6 cm): the hand comes down
over a block pointing down (leaning up to 60 degrees toward its far side when it lies
beyond the down-pointing reach) with the jaw across two opposite faces, closes and
lifts it straight up. The stiff pads hold it: no regrip, no turn to a level grip. The
reach is all in joint space: turned above its start, over the block, and down onto
it, each move aimed again from the pinch site's measured error (``reach``, ``aim``).

Carry. In joint space (tracked, the step-wise inverse kinematics lost far turns and
flung blocks) the block goes to the carry pose near the body, CARRY in the pelvis
frame, held flat: the hand keeps the rotation it gripped with, turned only about the
vertical (``upright_rotations``), so a leaning grip does not tilt the block. The
carrying hand keeps its pose in the pelvis frame and travels with the body.

Trips. The right hand takes the middle block and the left hand the left one (each
from a stance WORK_AHEAD behind it and WORK_ASIDE toward the hand); the robot steps
back from the table, side-steps 1.5 m and steps up to the far table; the left block
goes on the pad, the right one on it; the robot goes back the same way, and the right
hand takes the third block and stacks it on top. Far-table stances keep clear of the
table's legs (``LEG_CLEAR``). After each put the stack is checked (``stack``): a block
off its place, lying flat on a table, is taken again and set again.

Put. From the stance the block swings in joint space to CLEARANCE over its place, at
a heading from which the arm's step-wise path down is known to reach (``path_for``),
then comes down to HOVER and to its release height in joint-space moves aimed again
from the block's measured error (``aim``): tracking a hand pointing down over the far
table swung it 5-13 cm between control steps. It is let go RELEASE_GAP over its
support, or higher where a finger would touch the support first; the open hand rises
straight up, draws back toward the pelvis at that height and returns to its raised
angles by a route whose fingers stay clear of the stack (``retreat``).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from itertools import pairwise

import mujoco
import numpy as np

from bench.policies.experts.kinematics import rot_z, rotation_error
from bench.policies.experts.script import KEYFRAME_ARMS, Expert
from bench.policies.experts.tabletop import (
    STANCE_MIN_SPEED,
    STANCE_TOLERANCE,
    TableTopExpert,
    side_sign,
)
from bench.tasks.props import (
    PAD_HALF,
    PAD_HALF_THICKNESS,
    TABLE_LEG_HALF,
    TABLE_LEG_INSET,
    TABLE_TOP,
)
from bench.tasks.tabletop import BLOCK_HALF, BLOCKS, FAR_TABLE_CENTER, FAR_TABLE_HALF
from bench.tasks.tabletop import StackBlocks as StackBlocksTask

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
CLIMB_STEP = 0.02  # m, a straight rise is solved this far at a time
CARRY = np.array([0.24, 0.22, 0.88])  # m, a carried block's centre in the pelvis frame
# (y mirrored per side): near the body, its bottom 5 cm over a two-block stack's top
BLOCK_YAWS = np.radians(np.arange(0.0, 360.0, 30.0))  # headings tried for a held block
# (it turns with the hand about the vertical)
TAKE_ATTEMPTS = 3
STACK_REPAIRS = 3  # times at most a block off its place in the stack is taken and set again
SETTLE_STEPS = 25  # control steps the blocks settle after a put before the stack is checked
PLACED_HEIGHT = 0.006  # m, a block rests on its support with its centre this near BLOCK_HALF
# over the support's top
IN_HAND = 0.06  # m, a block's centre this near the pinch site is in the jaw
HELD_ABOVE = 0.02  # m, and this far above its place on a table
PATH_MARGIN = 0.02  # m, a place's path is checked this far below its end
SWING_STEPS = 40  # control steps at least for a joint-space move of a carrying hand
WORK_AHEAD = 0.28  # m, a block or the stack this far ahead of the pelvis when worked on
WORK_ASIDE = 0.18  # m, and this far toward the working hand (from 0.36 ahead or 0.08-0.09
# aside the arm, pointing down at the edge of its reach, shook the hand 5-7 cm: it knocked
# blocks off the table, and the opened jaw dragged a block off the pad)
STANCE_WALKS = 3  # walks at most to a stance
LEG_CLEAR = 0.22  # m, a stance at the far table keeps the pelvis this far from the inner
# face of its right-hand legs: stopped 0.11 from it (the aisle walk overshoots 4-8 cm that
# way), the right thigh met the leg, and the walk to the table turned and stalled for up
# to 2000 control steps while the carried blocks fell (700015, 700028, 700031)
FAR_STANCE_Y_MIN = (FAR_TABLE_CENTER[1] - FAR_TABLE_HALF[1] + TABLE_LEG_INSET + TABLE_LEG_HALF
                    + LEG_CLEAR)
STANCE_NEAR = 0.02  # m, how near a stance a take out of reach from the first stands
# (stopped 3 cm short, the arm's only way over a block swept the fingers through it: 620019)
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
RELEASE_GAP = 0.004  # m, the carried block's bottom above its support when let go
HOVER = 0.06  # m, the block hovers this far above its place before it is lowered
FINGER_GEOMS = ("finger_a_link", "finger_b_link", "pad_a", "pad_b")  # boxes
FINGER_GAP = 0.005  # m, the fingertips at least this far over a support when let go
PLACE_TOLERANCE = 0.006  # m
HOVER_STEPS = 25  # control steps for the joint-space move down to HOVER
LOWER_STEPS = 25  # control steps for the last HOVER - RELEASE_GAP
AIM_STEPS = 10  # control steps for each correcting joint-space move
AIM_SETTLE = 8  # control steps of waiting before the error is measured
AIM_TRIES = 4  # joint-space moves at most to a place
AIM_SOLVED = 0.01  # weighted inverse-kinematics error above which an aim is not moved to
AIM_TURN = 1.0  # rad, nor a correction that turns a joint further (a first move may:
# held back, a put opened the jaw with the block 11 cm over the stack)
RISE_STEPS = 30  # control steps for the open hand's rise
LEVEL_ABOVE = 0.08  # m, the open hand levels this far above where it rose to
RETURN_CLEAR = 0.03  # m, the returning fingers stay this far above the block let go
WITHDRAW = 0.15  # m, the risen open hand draws back this far toward the pelvis
PATH_SAMPLES = 9  # poses checked along a joint-space path
RETURN_STEPS = 50  # control steps for the arm's return to its raised angles
OFFSET_LIMIT = 0.10  # m, largest hand offset
REACH_TOLERANCE = 0.006  # m, a reach's pinch site this near its target over a block
VIA_RISE = 0.05  # m, a reach turns the hand this far above its start or its clearance
DESCENT_STEPS = 30  # control steps for the open jaw's way down onto a block
SWING_CLEAR = TABLE_TOP + 2 * BLOCK_HALF + 0.03  # m, the fingers stay above this on the
# way to a reach's turning point (3 cm over a block's top)


def grasp_rotation(yaw: float, tilt: float, forward: np.ndarray) -> np.ndarray:
    """The pinch frame that grips a block across the faces whose normal is at ``yaw``,
    pointing down but leaning ``tilt`` toward ``forward`` (horizontal)."""
    jaw = np.array([np.cos(yaw), np.sin(yaw), 0.0])
    lean = np.array([jaw[1], -jaw[0], 0.0])
    if lean @ forward < 0:
        lean = -lean
    x = np.cos(tilt) * DOWN + np.sin(tilt) * lean
    return np.column_stack([x, jaw, np.cross(x, jaw)])


def upright_rotations(grip: np.ndarray, current: np.ndarray) -> list[np.ndarray]:
    """Pinch frames that hold a block flat: ``grip`` (the pinch frame that gripped it
    flat on the table) turned about the vertical to each of BLOCK_YAWS, the nearest to
    ``current`` first. A hand that leaned to grip would tilt the block by that lean if
    it simply pointed down."""
    rotations = [rot_z(yaw) @ grip for yaw in BLOCK_YAWS]
    return sorted(rotations, key=lambda r: float(np.linalg.norm(rotation_error(r, current))))


def block_yaw(rot: np.ndarray) -> float:
    """Yaw of a level face normal of a block lying flat on a face: its local x axis when
    that is near level (the block upright, as dealt, or fallen with y up), else its y
    axis (fallen with x up; one of the two is level whichever face it lies on), else,
    for a block leaning on something, its z axis."""
    axis = next((k for k in (0, 1) if abs(rot[2, k]) < 0.5), 2)
    return float(np.arctan2(rot[1, axis], rot[0, axis]))


class StackBlocks(TableTopExpert):
    """Two trips to the far table, stacking the three blocks on the pad."""

    def __init__(self, task: str):
        super().__init__(task)
        rng = np.random.default_rng(0)
        forward = {"left": ARM_FORWARD, "right": ARM_FORWARD * MIRROR}
        model = self.kin.model
        self.path_data = mujoco.MjData(model)  # scratch for the commanded arm's pose
        self.fingers = {side: [model.geom(f"{side}_gripper_{part}").id for part in FINGER_GEOMS]
                        for side in ("left", "right")}
        self.starts = {side: [KEYFRAME_ARMS[side], forward[side]]
                       + [forward[side] + rng.normal(0.0, IK_SPREAD, 7) for _ in range(IK_STARTS)]
                       for side in forward}

    def reset(self) -> None:
        """Start a new episode (no block carried)."""
        super().reset()
        # side -> (block, pinch position and rotation in the pelvis frame)
        self.carried: dict[str, tuple[str, np.ndarray, np.ndarray]] = {}
        # side -> the pinch frame as it gripped its block (the block flat on the table)
        self.grips: dict[str, np.ndarray] = {}
        self.raised = {side: KEYFRAME_ARMS[side].copy() for side in ("left", "right")}

    def _track(self) -> None:
        """Keep each carrying hand at its pose in the pelvis frame (it travels with the
        body, walking included), then track as usual; where the arm no longer reaches
        that pose from its angles, hold them instead (the body sways on a walk: tracked
        on, the right arm's solution went off to a far branch and flung the block up
        to 1.2 m and onto the floor, 700028)."""
        x, y, yaw = self.kin.pelvis_pose()
        turn = rot_z(yaw)
        tracked = {}
        for side, (_, local, rot) in self.carried.items():
            pose = (np.array([x, y, 0.0]) + turn @ local, turn @ rot)
            q, error = self.kin.solve(side, pose[0] + self.offset[side], pose[1], self.arm[side])
            self.hand.pop(side, None)
            if error < AIM_SOLVED:
                self.step_arm(side, q)
                tracked[side] = pose
        super()._track()  # the other hands
        self.hand.update(tracked)

    def _learn_offsets(self) -> None:
        """Learn the offsets of the hands that carry nothing: a carrying hand's error is
        mostly the body's sway, and learning it shook a block out of the jaw."""
        carrying = {side: self.hand.pop(side) for side in self.carried if side in self.hand}
        super()._learn_offsets()
        self.hand.update(carrying)

    def script(self) -> Iterator[None]:
        blocks = sorted(BLOCKS, key=lambda b: self.kin.body_pos(b)[1])  # right to left
        middle, left, right = blocks[1], blocks[2], blocks[0]
        yield from self.ready("left", "right")
        self.raised = {side: self.arm[side].copy() for side in ("left", "right")}
        # A block not taken, or off its place where it cannot be taken again, ends the
        # script. The left hand's block goes on the pad first: set second, onto the right
        # hand's, it landed 2-9 cm off it on 3 of 20 seeds.
        if not ((yield from self.take("right", middle))
                and (yield from self.take("left", left))):
            return
        order = (left, middle, right)  # bottom to top
        for level, side in enumerate(("left", "right", "right")):
            if level == len(order) - 1 and not (yield from self.take(side, right)):
                return
            if not (yield from self.stack(side, order, level)):
                return
        x, y, _ = self.kin.pelvis_pose()
        yield from self.walk_to(x - 0.10, y, 0.0, max_steps=100,
                                tolerance=STANCE_TOLERANCE, min_speed=STANCE_MIN_SPEED)

    def stack(self, side: str, order: tuple[str, ...], level: int
              ) -> Generator[None, None, bool]:
        """Put ``order[level]``, carried by ``side``'s hand, on its place in the stack
        (``order`` bottom to top; the lowest on the pad), wait for the blocks to settle
        and check the stack up to it: the lowest block off its place (dropped from the
        jaw over the far table, set off the stack, or knocked off by the open hand's
        rise) is taken again by the same hand and set again, at most STACK_REPAIRS
        times, if it lies flat on a table with no block on it. Whether the stack
        stands up to ``level``. A put's aim dropped the left hand's block 13-16 cm off
        the pad and the script stacked the others on it there (620050, 620073); the
        last rise dragged the lower blocks and the top one fell (620052)."""
        wrong = level
        for repair in range(STACK_REPAIRS + 1):
            if repair:
                block = order[wrong]
                if not (self.on_table(block) and not self.covered(block)
                        and (yield from self.take(side, block))):
                    return False
            yield from self.put(side, order[wrong], self.support(order, wrong),
                                last=wrong == len(order) - 1)
            yield from self.wait(SETTLE_STEPS)
            misplaced = [k for k in range(level + 1) if not self.placed(order, k)]
            if not misplaced:
                return True
            wrong = misplaced[0]
        return False

    def support(self, order: tuple[str, ...], level: int) -> np.ndarray:
        """The middle of the top face that ``order[level]`` goes on: the pad's, or that
        of the block below it."""
        return self.pad_top() if level == 0 else self.block_top(order[level - 1])

    def placed(self, order: tuple[str, ...], level: int) -> bool:
        """Whether ``order[level]`` rests on its place: flat on the pad (the lowest), or
        on the block below as the task counts it (``on_top``), touching it."""
        block = order[level]
        if level == 0:
            centre, pad = self.kin.body_pos(block), self.pad_top()
            return (abs(float(centre[2] - pad[2]) - BLOCK_HALF) < PLACED_HEIGHT
                    and float(np.abs(centre[:2] - pad[:2]).max()) < PAD_HALF + BLOCK_HALF)
        below = order[level - 1]
        rise = float(self.kin.body_pos(block)[2] - self.kin.body_pos(below)[2])
        return self.on_top(block, below) and abs(rise - 2 * BLOCK_HALF) < PLACED_HEIGHT

    def covered(self, block: str) -> bool:
        """Whether another block lies on ``block`` (it cannot be taken from under it)."""
        centre = self.kin.body_pos(block)
        return any(float(np.linalg.norm(other[:2] - centre[:2])) < 2 * BLOCK_HALF
                   and other[2] > centre[2] + BLOCK_HALF
                   for other in (self.kin.body_pos(b) for b in BLOCKS if b != block))

    def on_top(self, upper: str, lower: str) -> bool:
        """Whether block ``upper`` sits on block ``lower`` as the task counts it (at least
        MIN_RISE higher, within MAX_OFFSET horizontally)."""
        up, low = self.kin.body_pos(upper), self.kin.body_pos(lower)
        return (up[2] - low[2] >= StackBlocksTask.MIN_RISE
                and float(np.linalg.norm(up[:2] - low[:2])) <= StackBlocksTask.MAX_OFFSET)

    def on_table(self, block: str) -> bool:
        """Whether ``block`` lies on a table top (not on another block, not held up)."""
        return abs(float(self.kin.body_pos(block)[2]) - (TABLE_TOP + BLOCK_HALF)) < 0.015

    def pad_top(self) -> np.ndarray:
        """The middle of the pad's top face."""
        return self.kin.body_pos("pad") + PAD_HALF_THICKNESS * UP

    def block_top(self, block: str) -> np.ndarray:
        """The middle of a block's top face (the block is upright)."""
        return self.kin.body_pos(block) + BLOCK_HALF * UP

    # ----- walking -------------------------------------------------------------------------

    def stance_for(self, side: str, point: np.ndarray, close: bool = False) -> Iterator[None]:
        """Walk, unless already there (within 5 cm; ``close``: STANCE_NEAR), so that
        ``point`` is WORK_AHEAD ahead of the pelvis and WORK_ASIDE toward ``side`` (no
        closer to a table than WORK_LIMIT, nor at the far table beyond
        FAR_STANCE_Y_MIN), at most STANCE_WALKS walks; through the aisle when it is far
        aside."""
        x = min(point[0] - WORK_AHEAD, WORK_LIMIT)
        y = point[1] - side_sign(side) * WORK_ASIDE
        if point[1] < FAR_TABLE_CENTER[1] + FAR_TABLE_HALF[1]:  # at the far table
            y = max(y, FAR_STANCE_Y_MIN)
        near = STANCE_NEAR if close else 0.05
        for _ in range(STANCE_WALKS):
            px, py, yaw = self.kin.pelvis_pose()
            if abs(px - x) < near and abs(py - y) < near and abs(yaw) < 0.1:
                return
            yield from self.through_aisle(y)
            yield from self.walk_to(x, y, 0.0, max_steps=600,
                                    tolerance=(near, STANCE_TOLERANCE[1]) if close
                                    else STANCE_TOLERANCE, min_speed=STANCE_MIN_SPEED)

    def through_aisle(self, y: float) -> Iterator[None]:
        """If a stance at pelvis ``y`` lies more than AISLE_FROM aside, step back from the
        table to AISLE_X and walk along it to the stance's side (walking along a table's
        edge, the embedded WBC drifts into it and stalls there)."""
        py = self.kin.pelvis_pose()[1]
        if abs(py - y) <= AISLE_FROM:
            return
        for wx, wy in ((AISLE_X, py), (AISLE_X, y)):
            yield from self.walk_to(wx, wy, 0.0, max_steps=600, tolerance=STANCE_TOLERANCE,
                                    min_speed=STANCE_MIN_SPEED)

    # ----- taking a block ------------------------------------------------------------------

    def solve(self, side: str, pos: np.ndarray, rot: np.ndarray,
              clear: float | None = None) -> tuple[np.ndarray, float, float]:
        """Arm angles for a pinch pose from several starts (the arm's angles, the
        keyframe, a forward reach and perturbations of it); the best, its error, and
        the lowest point of the fingers along the joint-space path there from the
        arm's angles (-inf where not measured). With ``clear`` (a world height), of
        the solutions the first whose path keeps the fingers above it, else the one
        keeping them highest: the first solution found swung the open hand 13 cm down
        through the block it was to take and flung it off the table (620019)."""
        best = (self.arm[side], np.inf, -np.inf)
        highest = best
        for start in [self.arm[side], *self.starts[side]]:
            q, error = self.kin.solve(side, pos, rot, start, iterations=60)
            if error < best[1] - 1e-4:
                best = (q, error, -np.inf)
            if error < SOLVED:
                if clear is None:
                    break
                bottom = self.path_bottom(side, self.arm[side], q)
                if bottom > clear:
                    return q, error, bottom
                if bottom > highest[2]:
                    highest = (q, error, bottom)
        return best if np.isinf(highest[2]) else highest

    def grasp_pose(self, side: str, block: str) -> tuple[np.ndarray, np.ndarray, float]:
        """The pinch position and rotation that grip ``block`` from here, and the
        inverse-kinematics error left there: of the least tilt for which the arm reaches
        it and the approach above it, the jaw heading reached best, unless the arm's
        joint-space way to CLEARANCE over the approach sweeps the fingers below
        SWING_CLEAR (then the next best, or the next tilt). The best-reached heading of
        620019's first take swept the hand 13 cm down through the block it was to take,
        and flung it off the table; another heading of the same tilt stayed clear."""
        centre = self.kin.body_pos(block)
        px, py, _ = self.kin.pelvis_pose()
        forward = np.array([centre[0] - px, centre[1] - py, 0.0])
        forward /= np.linalg.norm(forward)
        yaw = block_yaw(self.kin.body_rot(block))
        pos = centre + GRASP_ABOVE * UP
        best: tuple[float, np.ndarray] = (np.inf, np.eye(3))  # the least tilt's best reached
        for tilt in TILTS:
            candidates = []
            for k in range(4):
                r = grasp_rotation(yaw + k * np.pi / 2, tilt, forward)
                error = self.solve(side, pos, r)[1]
                if error < SOLVED:
                    error = max(error, self.solve(side, pos - APPROACH * r[:, 0], r)[1])
                candidates.append((error, k, r))
            candidates.sort(key=lambda c: c[:2])
            if candidates[0][0] < best[0] - 1e-4 and best[0] >= SOLVED:
                best = (candidates[0][0], candidates[0][2])
            for error, _, r in candidates:
                if error >= SOLVED:
                    break
                high = pos - APPROACH * r[:, 0] + CLEARANCE * UP
                _, high_error, bottom = self.solve(side, high, r, clear=SWING_CLEAR)
                if high_error < SOLVED and bottom > SWING_CLEAR:
                    return pos, r, error
        return pos, best[1], best[0]

    def reach(self, side: str, pos: np.ndarray, rot: np.ndarray) -> Iterator[None]:
        """Bring the hand to the pinch pose from above, in joint-space moves (tracked, the
        step-wise inverse kinematics swung the hand 6 cm to either side over a block and
        knocked it over): turned to the pose's rotation VIA_RISE above the higher of where
        it is and CLEARANCE over the pose (straight from the ready pose to the angles
        solved there, the fingers swung 10 cm below both ends and pushed the block),
        then over the pose and down onto it, each aimed again from the pinch site's
        measured error (the arm sags and the body moves after the angles are solved:
        ended unaimed, the reach left the hand 5-7 cm low and behind its pose). The
        turning point is the first of these the arm reaches (its fingers kept above
        SWING_CLEAR on the way there): over the hand, VIA_RISE above the higher of the
        two; over the hand at that height; VIA_RISE over the pose's clearance."""
        high = pos + CLEARANCE * UP
        here = self.kin.pinch_pose(side)[0]
        top = max(here[2], high[2])
        for via in (np.array([here[0], here[1], top + VIA_RISE]), np.array([*here[:2], top]),
                    high + VIA_RISE * UP):
            q_via, via_error, _ = self.solve(side, via, rot, clear=SWING_CLEAR)
            q, error = self.kin.solve(side, high, rot, q_via, iterations=100)
            if max(via_error, error) < SOLVED:
                yield from self.joints({side: q_via}, self.joint_steps(side, q_via))
                break
        else:
            q, _, _ = self.solve(side, high, rot, clear=SWING_CLEAR)
        yield from self.joints({side: q}, self.joint_steps(side, q))
        yield from self.aim(side, None, high, rot, AIM_STEPS, REACH_TOLERANCE)
        yield from self.aim(side, None, pos, rot, HOVER_STEPS, REACH_TOLERANCE)

    def joint_steps(self, side: str, q: np.ndarray, least: int = 20) -> int:
        """Control steps for a joint-space move of ``side``'s arm to ``q``: its fastest
        joint at REACH_SPEED, at least ``least`` (SWING_STEPS for a carrying hand)."""
        return int(max(least, np.abs(q - self.arm[side]).max() / REACH_SPEED))

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
        for close in (False, True):
            if error <= SOLVED:
                break
            yield from self.stance_for(side, self.kin.body_pos(block), close)
            pos, rot, error = self.grasp_pose(side, block)
        yield from self.grip(side, 0.0, 5)
        yield from self.reach(side, pos - APPROACH * rot[:, 0], rot)
        pos = self.kin.body_pos(block) + GRASP_ABOVE * UP  # the block, seen again
        yield from self.aim(side, None, pos, rot, DESCENT_STEPS, REACH_TOLERANCE)
        yield from self.grip(side, 1.0, 12)
        self.grips[side] = self.kin.pinch_pose(side)[1]
        yield from self.wait(5)
        yield from self.joints({side: self.climb(side, LIFT)}, LIFT_STEPS)
        yield from self.carry(side, block)

    def climb(self, side: str, rise: float, q: np.ndarray | None = None) -> np.ndarray:
        """Arm angles that raise the pinch pose of ``side``'s arm at ``q`` (default: its
        commanded angles) ``rise`` straight up, its rotation kept (``shift``). Solved in
        one go from the gripping arm, the lift jumped to another branch and swung the
        block 45 cm up and across the body; solved for the measured pinch pose (the arm
        sagging 2 cm below its command), the rise found no solution and the hand stayed
        down."""
        return self.shift(side, rise * UP, q)

    def shift(self, side: str, offset: np.ndarray, q: np.ndarray | None = None) -> np.ndarray:
        """Arm angles that move the pinch pose of ``side``'s arm at ``q`` (default: its
        commanded angles) by ``offset`` in a straight line, its rotation kept: solved
        CLIMB_STEP at a time, each from the last (so the arm stays on its branch), up
        to the last point solved."""
        q = self.arm[side] if q is None else q
        start, rot = self.commanded_pinch(side, q)
        length = float(np.linalg.norm(offset))
        for travel in np.arange(CLIMB_STEP, length + 1e-9, CLIMB_STEP):
            step, error = self.kin.solve(side, start + offset * travel / length, rot, q,
                                         iterations=60)
            if error > SOLVED:
                break
            q = step
        return q

    def held(self, side: str, block: str) -> np.ndarray:
        """The block's centre in the frame of ``side``'s pinch site."""
        pinch, rot = self.kin.pinch_pose(side)
        return rot.T @ (self.kin.body_pos(block) - pinch)

    def carry(self, side: str, block: str) -> Iterator[None]:
        """Bring the gripped block to the carry pose: its centre at CARRY in the pelvis
        frame, the hand pointing down at the jaw heading nearest its grip's that the arm
        reaches there."""
        x, y, yaw = self.kin.pelvis_pose()
        centre = np.array([x, y, 0.0]) + rot_z(yaw) @ (CARRY * [1.0, side_sign(side), 1.0])
        q, pos, rot, _ = self.path_for(side, block, (centre,))
        yield from self.swing(side, q, pos, rot)
        turn = rot_z(-yaw)
        self.carried[side] = (block, turn @ (pos - [x, y, 0.0]), turn @ rot)

    def swing(self, side: str, q: np.ndarray, pos: np.ndarray,
              rot: np.ndarray) -> Iterator[None]:
        """Bring the arm to angles ``q`` in joint space, at most REACH_SPEED per joint and
        control step, and track the pinch pose (``pos``, ``rot``) they reach from there
        (tracked, the step-wise inverse kinematics lost a far turn: the hand rose 40 cm
        off its path and flung the block)."""
        yield from self.joints({side: q}, self.joint_steps(side, q, SWING_STEPS))
        self.hand[side] = (pos, rot)
        self.learning = False

    def path_for(self, side: str, block: str, centres: tuple[np.ndarray, ...]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        """Arm angles and the pinch pose that put the held ``block``'s centre, upright,
        at the first of ``centres``, from where the hand's step-wise tracking reaches
        the others in turn (and PATH_MARGIN below the last): of the block headings, the
        nearest the hand's present one for which some start does (else the best), and
        the inverse-kinematics error left along that path. Solved one by one from many
        starts, each pose was reachable, but tracking from the first one's angles to the
        last got stuck 10-18 cm off at a shoulder limit."""
        held = self.held(side, block)
        targets = (*centres, centres[-1] - PATH_MARGIN * UP)
        best: tuple[float, np.ndarray, np.ndarray] = (np.inf, self.arm[side], np.eye(3))
        for rot in upright_rotations(self.grips[side], self.commanded_pose(side)[1]):
            for start in [self.arm[side], *self.starts[side]]:
                first, error = self.kin.solve(side, targets[0] - rot @ held, rot, start,
                                              iterations=60)
                q = first
                for centre in targets[1:]:
                    if error > SOLVED:
                        break
                    q, step_error = self.kin.solve(side, centre - rot @ held, rot, q,
                                                   iterations=60)
                    error = max(error, step_error)
                if error < best[0] - 1e-4:
                    best = (error, first, rot)
                if error < SOLVED:
                    return first, centres[0] - rot @ held, rot, error
        error, q, rot = best
        return q, centres[0] - rot @ held, rot, error

    # ----- stacking ------------------------------------------------------------------------

    def put(self, side: str, block: str, support: np.ndarray,
            last: bool = False) -> Generator[None, None, bool]:
        """Set the carried ``block`` on ``support`` (the middle of the top face below) and
        let go: swing it CLEARANCE over its place above the support, lower it to HOVER
        and then to RELEASE_GAP over the support, the block upright (at a heading the
        arm reaches there), each step in joint space and aimed again from where the
        block is; open the jaw, rise straight up (``climb``) and return the arm to its
        raised angles (``retreat``; after the ``last`` block the hand stays up:
        levelling over the three-block stack knocked the top one off). False (and
        nothing set down) when the block was dropped on the way to the stance or on it.

        Every arm motion here is in joint space: the step-wise tracking of a hand
        pointing down over the far table swung it 5-13 cm from one control step to the
        next and set blocks down off their support."""
        if not self.holds(side, block):
            self.carried.pop(side, None)
            return False
        yield from self.stance_for(side, support)
        if not self.holds(side, block):
            self.carried.pop(side, None)
            return False
        del self.carried[side]
        # the fingers stay FINGER_GAP over the support (a block held low in the jaw, or by
        # a leaning hand, was stopped by a finger on the block below and tipped off it)
        reach = float(self.kin.body_pos(block)[2]) - self.finger_bottom(side)
        low = support + max(BLOCK_HALF + RELEASE_GAP, reach + FINGER_GAP) * UP
        hover = low + HOVER * UP
        high = hover + CLEARANCE * UP
        q, _, rot, error = self.path_for(side, block, (high, hover, low))
        if error > SOLVED:  # swung to the best of no solution, the arm flung the block (620019)
            yield from self.stance_for(side, support, close=True)
            q, _, rot, _ = self.path_for(side, block, (high, hover, low))
        yield from self.joints({side: q}, self.joint_steps(side, q, SWING_STEPS))
        rot = yield from self.aim(side, block, hover, rot, HOVER_STEPS)
        rot = yield from self.aim(side, block, low, rot, LOWER_STEPS)
        yield from self.grip(side, 0.0, 8)
        yield from self.wait(8)
        yield from self.joints({side: self.climb(side, APPROACH + LIFT)}, RISE_STEPS)
        if last:
            return True
        clear = float(self.kin.body_pos(block)[2]) + BLOCK_HALF + RETURN_CLEAR
        for q in self.retreat(side, clear):
            yield from self.joints({side: q}, RETURN_STEPS)
        return True

    def retreat(self, side: str, clear: float) -> list[np.ndarray]:
        """Joint-space waypoints from the risen open hand back to its raised angles: first
        WITHDRAW toward the pelvis at its height and rotation (``shift``), so that what
        follows happens off the stack; then straight back, or levelled LEVEL_ABOVE higher
        first, whichever keeps the fingers above height ``clear`` (checked by forward
        kinematics along each path, the body as it is; else the one keeping them
        highest). Levelled in one joint-space move over the stack, the hand dipped 12 cm
        and dragged the block just set down 11 cm off the one below; a route checked
        clear by 2 cm over the stack still dragged one off (the arm lags and sags)."""
        pinch = self.kin.pinch_pose(side)[0]
        x, y, _ = self.kin.pelvis_pose()
        back = np.array([x - pinch[0], y - pinch[1], 0.0])
        back *= WITHDRAW / max(float(np.linalg.norm(back)), 1e-9)
        start = self.shift(side, back)
        level_pos = self.commanded_pinch(side, start)[0] + LEVEL_ABOVE * UP
        level, _ = self.kin.solve(side, level_pos, rot_z(self.kin.pelvis_pose()[2]), start,
                                  iterations=60)
        raised = self.raised[side]
        routes = [[start, raised], [start, level, raised]]
        best: tuple[float, list[np.ndarray]] = (-np.inf, routes[0])
        for route in routes:
            low = min(self.path_bottom(side, a, b)
                      for a, b in pairwise(route))
            if low > clear:
                return route
            if low > best[0]:
                best = (low, route)
        return best[1]

    def commanded_pinch(self, side: str, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The pinch pose ``side``'s arm at angles ``q`` would give, the body as it is."""
        d = self.path_data
        d.qpos[:] = self.kin.data.qpos
        d.qpos[self.kin.qpos_adr[side]] = q
        mujoco.mj_kinematics(self.kin.model, d)
        site = self.kin.pinch[side]
        return d.site_xpos[site].copy(), d.site_xmat[site].reshape(3, 3).copy()

    def path_bottom(self, side: str, start: np.ndarray, end: np.ndarray) -> float:
        """The lowest point of ``side``'s fingers (world height) along the joint-space
        path from ``start`` to ``end`` (PATH_SAMPLES poses, the body as it is)."""
        low = np.inf
        for s in np.linspace(0.0, 1.0, PATH_SAMPLES):
            self.commanded_pinch(side, start + s * (end - start))
            low = min(low, self.finger_bottom(side, self.path_data))
        return low

    def finger_bottom(self, side: str, data: mujoco.MjData | None = None) -> float:
        """The lowest point of ``side``'s fingers and pads (boxes), world height (in
        ``data``: by default the world state)."""
        m, d = self.kin.model, self.kin.data if data is None else data
        return min(float(d.geom_xpos[g][2] - np.abs(d.geom_xmat[g][6:9]) @ m.geom_size[g])
                   for g in self.fingers[side])

    def aim(self, side: str, block: str | None, goal: np.ndarray, rot: np.ndarray,
            steps: int, tolerance: float = PLACE_TOLERANCE) -> Generator[None, None, np.ndarray]:
        """Bring the held ``block``'s centre (with no block: the pinch site) to ``goal``
        by joint-space moves of ``steps`` control steps: aim the pinch site, wait
        AIM_SETTLE steps, and aim again from the measured error (at most AIM_TRIES
        moves, until within ``tolerance``). A held block stays upright but turns about
        the vertical where the arm no longer reaches ``rot`` (the body drifted 6 cm
        and turned during a put, and the arm, held short of the unreachable rotation,
        set the block 4 cm off the one below). The hand rotation it ended with."""
        aim = goal.copy()
        for attempt in range(AIM_TRIES):
            held = np.zeros(3) if block is None else self.held(side, block)
            q, error = self.kin.solve(side, aim - rot @ held, rot, self.arm[side], iterations=60)
            if block is not None and error > SOLVED:
                for turned in upright_rotations(self.grips[side], rot):
                    q, error = self.kin.solve(side, aim - turned @ held, turned, self.arm[side],
                                              iterations=60)
                    if error < SOLVED:
                        rot = turned
                        break
            if error > AIM_SOLVED or (attempt and np.abs(q - self.arm[side]).max() > AIM_TURN):
                break  # no near solution: corrected from here, the arm flailed and flung blocks
            yield from self.joints({side: q}, steps)
            yield from self.wait(AIM_SETTLE)
            point = self.kin.pinch_pose(side)[0] if block is None else self.kin.body_pos(block)
            error = goal - point
            if np.linalg.norm(error) < tolerance:
                break
            aim = goal + np.clip(aim - goal + error, -OFFSET_LIMIT, OFFSET_LIMIT)
            steps = AIM_STEPS
        return rot


EXPERTS: dict[str, type[Expert]] = {"stack_blocks": StackBlocks}
