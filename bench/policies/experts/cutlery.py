"""Expert for flip_cutlery (bench.tasks.tabletop): the spoon out of the mug, turned
over, and back in.

The spoon settles leaning about 39 degrees on the mug's rim (the reset stands it at 10
degrees; it slides until the rim holds it), its bowl over the rim toward the mug's
handle, in whatever direction the mug's yaw gives; only 2 cm of handle rise above the
rim before the bowl begins, so a hand takes the bowl (the right one, unless the bowl is
on the left and the spoon leans away from the robot: working_hand), the jaw closing across the
spoon's axis, the pinch below the bowl's widest section. Of the hand's pointings that
the arm reaches, the one whose open hand keeps clearest of the mug and the spoon (the
expert's copy of the scene, the joint-space reach sampled) is taken. It draws the
spoon out along its axis, raises it, and brings the hand level over the mug in one
joint-space move (the wrist roll near a limit, so that half a turn of it stays in
range). The spoon then hangs bowl down or stands bowl up, as the grip and the swing
leave it; bowl up, the wrist rolls half a turn. Closed loop on the measured spoon, the
hand turns until the spoon points straight down (held bowl down, its centre of mass
is above the jaw, and it slowly tips) and lowers it until the bowl's tip is just
above the rim over the mug's middle, and lets go: the spoon drops bowl first into the
mug and comes to rest leaning on its rim.
"""

from __future__ import annotations

import itertools
from collections.abc import Generator, Iterator

import numpy as np

from bench.policies.experts.kinematics import axis_angle, rot_x, rotation
from bench.policies.experts.script import Expert, interpolate_rotation
from bench.policies.experts.tabletop import ROLL_START, UP, WRIST_ROLL, TableTopExpert
from bench.tasks.props import TABLE_TOP
from bench.tasks.tabletop import MUG_HEIGHT

GRIP_AT = 0.078  # m along the spoon's axis: below the bowl's widest section (0.09), so
# that the spoon hanging from the jaw rests its widening bowl on the pads
BOWL_TIP = 0.114  # m along the axis: the far end of the bowl
HANDLE_END = -0.075  # m along the axis: the far end of the handle
RIM = TABLE_TOP + MUG_HEIGHT  # m, height of the mug's rim
APPROACH = 0.07  # m, the open jaw starts this far back along the hand's pointing
PITCHES = np.radians([0.0, 20.0, 35.0, 50.0, 65.0, 80.0])  # grasp: hand this far below level
AZIMUTHS = np.radians([0.0, -30.0, 30.0, -60.0, 60.0, -90.0, 90.0])  # grasp: about the
# bowl's bearing
REACH_CLEAR = 0.03  # m, the open hand this far from the mug and the spoon on the way to
# the approach's start is enough
SLIDE_CLEAR = 0.015  # m, and this far from the mug on the slide onto the bowl
PATH_SAMPLES = 21  # poses checked along a joint-space reach
GRASP_ATTEMPTS = 3  # grasps tried before the expert goes on regardless
HELD = 0.03  # m, the spoon's axis this close to the pinch site: it is held
REACH_ERROR = 0.004  # weighted inverse-kinematics error below which a pose is reachable
ALONG_PALM = 0.6  # cosine: the spoon may not point closer than this toward the palm
LIFT_ALONG = 0.08  # m, first lift along the spoon's axis (out of the mug)
CARRY_CLEAR = 0.04  # m, the spoon's lowest end above the rim while it is carried
DROP_CLEAR = 0.015  # m, the bowl's tip above the rim when the jaw lets go (or higher:)
HOUSING_CLEAR = 0.02  # m, the hand this far from the mug on the way down (its copy: the
# real hand sags below it)
LEGS = 4  # joint-space legs of a glide
DROP_RAISE = 0.01  # m, the drop point rises by this until the hand clears the mug
DROP_RAISES = 5  # at most this often
ALIGN_STEPS = 3  # corrections of the hand from the spoon's measured tip
SETTLE_STEPS = 40  # control steps for a hand's offset to learn its sag
TURN_STEPS = 60  # control steps for the half turn of the wrist roll
RAISE = 0.06  # m, the drawn spoon rises this much straight up before the hand turns level
OVER_YAWS = np.radians([0.0, -30.0, 30.0, -60.0, 60.0, -90.0, 90.0])  # the hand's pointing
# over the mug, about the pelvis' heading
DROP_SHIFTS = [np.zeros(3)] + [np.array(v) for v in ((0.03, 0.0, 0.0), (-0.03, 0.0, 0.0),
                                                    (0.0, 0.03, 0.0), (0.0, -0.03, 0.0))]
# m, where the planned pose must reach down to, about the drop point
STRAIGHTEN = (1.0, 0.5)  # shares of the spoon's tilt the hand over the mug takes out (the
# left hand cannot always hold the spoon straight down; half leaves at most about 17 degrees)
TIP_ROOM = np.radians(25.0)  # the hand must turn this far about the jaw's axis at the drop
# (the spoon held bowl down tips as far; each correction straightens it)
TURN_HEIGHT = RIM + 0.22  # m, the pinch site's height over the mug while the spoon turns
# (the handle's end, up to 13 cm from the pinch, clears the rim though the hand sags)
PRESENT_STEPS = 80  # control steps for the joint-space move to the level hand
ALIGN_MOVE_STEPS = 40  # control steps per closed-loop correction over the mug
LET_GO_TILT = np.radians(30.0)  # the spoon tipping past this near the drop is let go
LET_GO_RADIUS = 0.025  # m, of the mug's axis, its tip ...
LET_GO_HEIGHT = 0.035  # m, ... and over the rim
ALIGN_WAIT = 15  # control steps after each correction (the hand and the spoon settle)
WITHDRAW_STEPS = 40  # control steps for the open hand's rise back over the mug
SWING_STEPS = 40  # control steps for the hanging spoon to stop swinging


class FlipCutlery(TableTopExpert):
    """Take the spoon by its bowl, lift it out, turn it bowl down over the mug (the
    module's docstring gives how), drop it in."""

    def script(self) -> Iterator[None]:
        bowl = self.spoon_point(GRIP_AT)
        side = self.working_hand()
        yield from self.ready(side)
        yield from self.stand_before(bowl, side)
        for _ in range(GRASP_ATTEMPTS):
            yield from self.take(side, self.grasp_rotation(side))
            yield from self.lift(side)
            if self.holding(side):
                break
            yield from self.grip(side, 0.0, 10)
            yield from self.ready(side)
        yield from self.raise_over_mug(side)
        if self.spoon_axis()[2] > 0.0:  # bowl up: turn it down
            yield from self.turn_over(side)
        yield from self.drop_in(side)

    def working_hand(self) -> str:
        """The left hand for a bowl left of the pelvis on a spoon leaning away from the
        robot, else the right: the robot walks to whichever, but the left hand's grasps
        of spoons leaning toward it often leave the spoon 30-45 degrees off the hand's
        axis, where the arm cannot turn it straight down over the mug (measured on 13
        such seeds: 8 succeeded with the left hand, 13 with the right; on 15 left-side
        seeds leaning away, 13 with the left hand, 11 with the right). The gripper is
        not mirrored between the wrists (the driven finger is on the hand's -y side of
        both), which may be why."""
        bowl = self.spoon_point(GRIP_AT)
        leans_away = self.spoon_axis()[0] >= 0.0
        return "left" if bowl[1] >= self.kin.pelvis_pose()[1] and leans_away else "right"

    def holding(self, side: str) -> bool:
        """Whether the spoon's axis passes within HELD of the hand's pinch site."""
        pinch = self.kin.pinch_pose(side)[0]
        offset = pinch - self.kin.body_pos("spoon")
        axis = self.spoon_axis()
        return float(np.linalg.norm(offset - (offset @ axis) * axis)) < HELD

    def spoon_axis(self) -> np.ndarray:
        """The spoon's axis (handle to bowl) in the world."""
        return self.kin.body_rot("spoon")[:, 2]

    def spoon_point(self, along: float) -> np.ndarray:
        """The point ``along`` metres along the spoon's axis from its origin."""
        return self.kin.body_pos("spoon") + along * self.spoon_axis()

    def grasp_rotation(self, side: str) -> np.ndarray:
        """The hand's rotation for taking the bowl: pointing about the bowl's bearing
        from the pelvis (AZIMUTHS), level to steeply down (PITCHES), the jaw closing
        across the spoon's axis, the spoon kept away from the palm. Of the poses the arm
        reaches at the bowl, at the approach's start and along the lift, the one whose
        open hand keeps clearest of the mug and the spoon on the way to the approach's
        start, then of the mug on the slide onto the bowl (each up to what is enough),
        then the one pointing nearest the bowl's direction."""
        axis = self.spoon_axis()
        bowl = self.spoon_point(GRIP_AT)
        px, py, _ = self.kin.pelvis_pose()
        bearing = float(np.arctan2(bowl[1] - py, bowl[0] - px))
        best, best_key = None, (-np.inf, -np.inf, -np.inf)
        for azimuth in bearing + AZIMUTHS:
            for pitch in PITCHES:
                x = np.array([np.cos(pitch) * np.cos(azimuth), np.cos(pitch) * np.sin(azimuth),
                              -np.sin(pitch)])
                score = float(axis @ x)
                if abs(score) > ALONG_PALM:
                    continue
                y = np.cross(x, axis)
                y /= np.linalg.norm(y)
                for jaw in (y, -y):
                    rot = np.column_stack([x, jaw, np.cross(x, jaw)])
                    q_grasp, e_grasp = self.solve(side, bowl, rot)
                    q_start, e_start = self.solve(side, bowl - APPROACH * x, rot)
                    if max(e_grasp, e_start, self.lift_error(side, q_grasp, rot)) > REACH_ERROR:
                        continue
                    key = (*self.approach_clearance(side, q_start, q_grasp), score)
                    if key > best_key:
                        best, best_key = rot, key
        if best is None:  # none reached: from straight above, jaw across the spoon
            jaw = np.cross(UP, axis)
            jaw /= np.linalg.norm(jaw)
            best = np.column_stack([-UP, jaw, np.cross(-UP, jaw)])
        return best

    def lift_error(self, side: str, q_grasp: np.ndarray, rot: np.ndarray) -> float:
        """Inverse kinematics' largest error along the lift (lift's legs, solved one from
        the last from the grasp's angles): near the body, the arm may not hold the
        grasp's rotation while it draws the spoon out."""
        start = self.kin.pinch_at(side, q_grasp)[0]
        out = start + LIFT_ALONG * self.spoon_axis()
        up = np.array([*out[:2], max(RIM + CARRY_CLEAR + GRIP_AT - HANDLE_END, out[2])])
        q, worst = q_grasp, 0.0
        for target in [start + k / LEGS * (out - start) for k in range(1, LEGS + 1)] + [up]:
            q, error = self.kin.solve(side, target, rot, q, iterations=150)
            worst = max(worst, error)
        return worst

    def approach_clearance(self, side: str, q_start: np.ndarray,
                           q_grasp: np.ndarray) -> tuple[float, float]:
        """The open hand's least distance from the mug and the spoon on the joint-space
        reach from the arm's angles now to the approach's start, and from the mug on the
        slide from there to the grasp (arm angles interpolated; the expert's copy of the
        scene), each capped at what is enough (REACH_CLEAR, SLIDE_CLEAR)."""
        reach = [self.arm[side] + share * (q_start - self.arm[side])
                 for share in np.linspace(0.0, 1.0, PATH_SAMPLES)]
        slide = [q_start + share * (q_grasp - q_start) for share in (0.5, 1.0)]
        near = min(min(self.kin.distance(side, q, "spoon"), self.kin.distance(side, q, "mug"))
                   for q in reach)
        return (min(near, REACH_CLEAR),
                min(min(self.kin.distance(side, q, "mug") for q in slide), SLIDE_CLEAR))

    def solve(self, side: str, pos: np.ndarray, rot: np.ndarray) -> tuple[np.ndarray, float]:
        """Arm angles for the pinch pose (pos, rot) from the current ones, and the error."""
        return self.kin.solve(side, pos, rot, self.arm[side], iterations=100)

    def take(self, side: str, rot: np.ndarray) -> Iterator[None]:
        """Open the jaw, bring the hand behind the bowl in joint space (tracking the
        turn from the level hand step by step can lose the arm), hold it there while
        its offset learns the sag, slide it onto the bowl along its pointing and close
        it."""
        bowl = self.spoon_point(GRIP_AT)
        x = rot[:, 0]
        yield from self.grip(side, 0.0, 10)
        q, _ = self.solve(side, bowl - APPROACH * x, rot)
        yield from self.joints({side: q}, 60)
        # hold there while the hand's offset learns its sag
        yield from self.move({side: (bowl - APPROACH * x, rot)}, SETTLE_STEPS)
        yield from self.move({side: (bowl, rot)}, 40)
        yield from self.grip(side, 1.0, 15)
        yield from self.wait(10)

    def lift(self, side: str) -> Iterator[None]:
        """Draw the spoon out along its axis, then up until the handle clears the rim
        (joint-space legs, loose: tracked step by step, the hand jumped between solutions
        and dragged the mug 15 cm on some left-hand grasps, where the arm near the body
        cannot hold the grasp's rotation)."""
        pos, rot = self.kin.pinch_at(side, self.arm[side])
        out = pos + LIFT_ALONG * self.spoon_axis()
        yield from self.glide(side, out, rot, 40, loose=True)
        height = RIM + CARRY_CLEAR + (GRIP_AT - HANDLE_END)
        yield from self.glide(side, np.array([*out[:2], max(height, out[2])]), rot, 40,
                              loose=True)

    def raise_over_mug(self, side: str) -> Iterator[None]:
        """Raise the spoon straight up, then bring the hand (joint space) over the mug,
        turned so that the spoon, as it sits in the jaw now, would point straight down
        with its tip over the mug's middle (plan_over)."""
        pos, rot = self.kin.pinch_at(side, self.arm[side])
        yield from self.glide(side, pos + RAISE * UP, rot, 30)
        self.over = self.plan_over(side)
        yield from self.joints({side: self.over}, PRESENT_STEPS)
        yield from self.wait(SWING_STEPS)

    def plan_over(self, side: str) -> np.ndarray:
        """The arm's angles for the hand over the mug: of the hand's rotations that make
        the spoon (its pose in the jaw as measured now) point straight down with the jaw
        horizontal (the pointing level about the pelvis' heading, OVER_YAWS), the pinch
        site at TURN_HEIGHT and the tip over the mug's middle, the pose whose solution
        (from the arm's angles now and from wrist rolls near either limit) also reaches
        down to the drop, around it (DROP_SHIFTS) and turned by TIP_ROOM either way
        about the jaw's axis (room for the corrections), by the least sum of errors."""
        pinch, hand = self.kin.pinch_pose(side)
        axis = hand.T @ self.spoon_axis()  # in the hand's frame
        tip = hand.T @ (self.spoon_point(BOWL_TIP) - pinch)
        mug = self.kin.body_pos("mug")
        yaw = self.kin.pelvis_pose()[2]
        best, best_error = self.arm[side], np.inf
        for turn_yaw in yaw + OVER_YAWS:
            level = rotation(np.array([np.cos(turn_yaw), np.sin(turn_yaw), 0.0]))
            # jaw either way up: the one that leaves the spoon bowl down, then straightened
            level = level if (level @ axis)[2] <= 0.0 else level @ rot_x(np.pi)
            for share, roll in itertools.product(STRAIGHTEN, (None, ROLL_START, -ROLL_START)):
                rot = straighten(level @ axis, share) @ level
                offset = rot @ tip
                over = np.array([mug[0] - offset[0], mug[1] - offset[1], TURN_HEIGHT])
                drop = np.array([*over[:2], RIM + DROP_CLEAR - offset[2]])
                seed = self.arm[side].copy()
                if roll is not None:
                    seed[WRIST_ROLL] = roll
                q_over, error = self.solve_near(side, over, rot, seed)
                for shift in DROP_SHIFTS:
                    error += self.kin.solve(side, drop + self.offset[side] + shift, rot, q_over,
                                            iterations=150)[1]
                for tilt in (TIP_ROOM, -TIP_ROOM):  # the spoon tips about the jaw's axis
                    error += self.kin.solve(side, drop + self.offset[side],
                                            axis_angle(rot[:, 1], tilt) @ rot, q_over,
                                            iterations=150)[1]
                if error < best_error:
                    best, best_error = q_over, error
        return best

    def turn_over(self, side: str) -> Iterator[None]:
        """Should the spoon have swung bowl up after all, roll the hand half a turn about
        its pointing (one joint-space move, the wrist roll taken the way its range
        allows): the spoon hangs bowl down."""
        pos, rot = self.kin.pinch_at(side, self.arm[side])
        seed = self.arm[side].copy()
        seed[WRIST_ROLL] -= np.sign(seed[WRIST_ROLL] or 1.0) * np.pi
        self.over = self.solve_near(side, pos, rot @ rot_x(np.pi), seed)[0]
        yield from self.joints({side: self.over}, TURN_STEPS)
        yield from self.wait(SWING_STEPS)

    def drop_in(self, side: str) -> Iterator[None]:
        """Bring the bowl's tip DROP_CLEAR above the rim over the mug's middle (higher
        where the hand's housing, behind and below the pinch, would come within
        HOUSING_CLEAR of the mug) and let go, then draw the hand up. Closed loop on the
        measured spoon: each correction turns the hand about the pinch site until the
        spoon's axis points straight down (held bowl down, the spoon's centre of mass is
        above the jaw, and it slowly tips about the jaw's axis; half way, or not at all,
        where the arm does not reach that) and shifts it by the tip's remaining error,
        in joint-space legs (glide). A spoon tipping over the mug is let go at once."""
        for _ in range(ALIGN_STEPS):
            pos, rot = self.kin.pinch_at(side, self.arm[side])
            pinch = self.kin.pinch_pose(side)[0]
            mug = self.kin.body_pos("mug")
            goal = np.array([mug[0], mug[1], RIM + DROP_CLEAR])
            for share in (*STRAIGHTEN, 0.0):  # as straight as the arm reaches down there
                upright = straighten(self.spoon_axis(), share)
                tip = pinch + upright @ (self.spoon_point(BOWL_TIP) - pinch)
                error = self.kin.solve(side, pos + goal - tip, upright @ rot, self.arm[side],
                                       iterations=150)[1]
                if error < REACH_ERROR:
                    break
            tipped = yield from self.until_tipping(itertools.chain(
                self.glide(side, pos + goal - tip, upright @ rot, ALIGN_MOVE_STEPS,
                           clear_mug=True),
                self.wait(ALIGN_WAIT)))
            if tipped:
                break
        yield from self.grip(side, 0.0, 10)
        yield from self.wait(30)
        yield from self.joints({side: self.over}, WITHDRAW_STEPS)
        yield from self.wait(20)

    def until_tipping(self, steps: Iterator[None]) -> Generator[None, None, bool]:
        """Run ``steps``; stop early, returning True, once the spoon tips over the mug."""
        for _ in steps:
            yield
            if self.tipping_over_mug():
                return True
        return False

    def tipping_over_mug(self) -> bool:
        """The spoon tips past LET_GO_TILT while its tip is low over the mug's opening
        (within LET_GO_RADIUS of the axis, LET_GO_HEIGHT over the rim): let go now, bowl
        first, before it tips further."""
        tip = self.spoon_point(BOWL_TIP)
        mug = self.kin.body_pos("mug")
        return bool(-self.spoon_axis()[2] < np.cos(LET_GO_TILT)
                    and np.linalg.norm((tip - mug)[:2]) < LET_GO_RADIUS
                    and tip[2] < RIM + LET_GO_HEIGHT)

    def glide(self, side: str, pos: np.ndarray, rot: np.ndarray, steps: int,
              clear_mug: bool = False, loose: bool = False) -> Iterator[None]:
        """Move the pinch pose the arm is commanded to toward (pos, rot) in LEGS
        joint-space legs over ``steps`` control steps, each solved from the last (a path
        near the straight one, which per-step tracking near the wrist's limits is not).
        ``loose``: where the arm cannot hold the rotation, a leg goes for the position
        alone. ``clear_mug``: every leg's end is raised by DROP_RAISE (up to DROP_RAISES
        times, the rest of the way with it) while the hand there comes within
        HOUSING_CLEAR of the mug."""
        q = self.arm[side]
        start, turn = self.kin.pinch_at(side, q)
        lift = np.zeros(3)
        for leg in range(1, LEGS + 1):
            share = leg / LEGS
            rot_leg = interpolate_rotation(turn, rot, share)
            for _ in range(DROP_RAISES + 1):
                target = start + share * (pos - start) + lift
                q_leg, error = self.kin.solve(side, target, rot_leg, q, iterations=150)
                if loose and error > REACH_ERROR:  # the rotation cannot be held: position only
                    q_leg = self.kin.solve(side, target, None, q, iterations=150)[0]
                if not clear_mug or lift[2] >= DROP_RAISES * DROP_RAISE or \
                        self.kin.distance(side, q_leg, "mug") >= HOUSING_CLEAR:
                    break
                lift[2] += DROP_RAISE
            q = q_leg
            yield from self.joints({side: q}, steps // LEGS)


def straighten(axis: np.ndarray, share: float = 1.0) -> np.ndarray:
    """``share`` of the least rotation that turns the unit vector ``axis`` to point
    straight down."""
    turn = np.cross(axis, -UP)
    angle = float(np.arctan2(np.linalg.norm(turn), -axis[2]))
    return axis_angle(turn, share * angle) if angle > 1e-6 else np.eye(3)


EXPERTS: dict[str, type[Expert]] = {"flip_cutlery": FlipCutlery}
