"""The expert for dishwasher_load_cutlery: the knife and fork from the mug on the counter
into the bottom tray's cutlery basket.

The scene is dishwasher_load_cups' (``bench.policies.experts.dishwasher``): the counter
ahead, the dishwasher on the robot's left with its door open flat at knee height and
the bottom tray pulled out over it, so the basket stands at x 0.06-0.18, y 0.34-0.50,
its rim at 0.595 m, beside the corner where the robot works. The knife and fork stand
in the mug handle down and settle leaning about 35 degrees; each sticks out of the mug
by its blade or tines, a 3 mm thick plate whose faces look any way about the item's
axis (seeds 620000-620009).

The left hand takes each item by that plate (``grasp_pose``), pointing GRASP_PITCH down
along the item's lean (or, where that is out of reach from the stance, the nearest of
the other GRASP_PITCHES and GRASP_TURNS that is: ``grasp_tilt``) with the jaw closing
square to the item's axis, so the item turns about its axis in the mug as the pads
close; the open jaw (5.3 cm) leaves 2.5 cm either side of the 3 mm plate, and its pads
(5.6 cm long) cover the 1.8-2.4 cm wide plate whether the hand stops 2 cm short or long.
Where the closed jaw holds the plate by the pads' tips, or past the plate's tip, it opens,
the hand moves by the measured error and the jaw closes again (``seat``).
The hand draws the item out along its axis, carries it level at HOLD, its lower end over
the counter, while the robot turns to face the basket from the corner (DROP_STANCE),
sets the item's lower end into the basket's corner cell opposite the way the held item
leans, so that it leans across the basket (``place``, ``set_height``), and lets go. The
per-step tracking moves an arm only toward angles that bring its hand nearer the target
(``_track``). The item whose grasp point is nearer (the smaller x) goes first; an item
not lifted is taken again while it still stands in the mug (up to TRIES takes, and
ROUNDS rounds over both items). The reach to the approach's start keeps the open hand
REACH_CLEAR from the mug and the items where a grasp rotation allows (``grasp_tilt``).
When the jaw closes on both items at once, the pair is carried and dropped together, raised
higher and swung slower (BOTH_CARRY).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from bench.policies.experts.dishwasher import (
    CUP_ASIDE,
    CUP_STANCE_LIMIT,
    GRIP_CLOSED,
    HIGH_READY,
    MIN_WALK,
    RIGHT_TUCK,
    UP,
    DishwasherExpert,
    pointing,
)
from bench.policies.experts.kinematics import rotation
from bench.policies.experts.script import REACHABLE, Expert
from bench.robot.constants import GRIPPER_PADS
from bench.tasks import dishwasher_scene as ds

ITEMS = ("knife", "fork")
HALF_LENGTH = 0.105  # m, an item's ends from its origin along its local z
GRASP_AT = {"knife": 0.08, "fork": 0.07}  # m, the pinch on the item's axis this far
# toward its top from its origin (the blade spans 0-0.10, the tines 0.035-0.085): the
# items settle leaning about 35 degrees, and a hand rolled to square its jaw to a leaning
# item lowers its lower finger up to 2 cm; at 0.06 that finger knocked the mug over by
# its rim (seed 620000). The pads span 2.4 cm along the item's axis; at 0.08 on the
# fork, the fork slid 1 cm in the closing jaw, the pinch ended 0.09 up its axis, the pads
# held only the tines' last 7 mm, and the fork slid out of the jaw along its axis as the
# hand started back from the mug (620032, 620053)
GRASP_PITCH = np.radians(30)  # the hand points this far down taking an item: its lower
# finger stays above the mug's rim (level, it swept the rim and knocked the mug)
MAX_YAW = np.radians(45)  # the hand points at most this far off forward (the left hand's
# reach 0.5 m ahead)
# Other grasp rotations, in this order, where the nominal one (GRASP_PITCH, along the
# lean) is out of reach from the stance: the hand's pitch, and its turn about the
# vertical off the lean (the jaw still closes square to the item's axis). Sent to an
# unreachable rotation, the per-step tracking traded position for rotation and the hand
# wandered 15 cm off the item (seed 620001, a 0.17 miss at the approach's start).
GRASP_PITCHES = np.radians([30.0, 45.0, 15.0])
GRASP_TURNS = np.radians([0.0, -15.0, 15.0, -30.0, 30.0, -45.0, 45.0, -60.0, 60.0, -90.0, 90.0])
# (beyond 30 degrees the hand rolls to keep the jaw square to the item: for an item
# leaning far to the left the lean's own yaw is clipped at MAX_YAW, and on 620046 none
# of the rotations within 30 degrees of it was in reach)
JAW_OPEN = 0.3  # closure while the jaw comes on: 5.3 cm between the pads
# Seating the closed jaw on the plate (``seat``): the pads reach 2.8 cm either side of the
# pinch site along the hand and 1.2 cm along the item's axis. Closed with the item's axis
# 3.0 and 3.4 cm ahead of the pinch, the pads held the plate by their tips and the fork
# swung out of the jaw on the carry (620007, 620009); closed past the tines' tips, it slid
# out (620078). The 138 items carried to the basket in a 100-seed run were held 2.3 cm
# behind to 2.9 cm ahead of the pinch.
SEAT_DEPTH = 0.018  # m, the item's axis at most this far from the pinch along the hand
# (the plates' half-widths are 0.9-1.05 cm: the whole width between the pads)
SEAT_OVERLAP = 0.012  # m, the pads cover at least this much of the plate along its axis
SEATS = 2  # times the jaw opens and closes again on a plate held off the pads
SEAT_HELD = (0.005, 0.04)  # m: the jaw holds the item where its axis is within these of
# the pinch across the jaw and along the hand (closed on nothing, the take is a miss)
STANCE_AHEAD = 0.42  # m, grasp point ahead of the pelvis (when the counter lets it): at
# 0.50 (a cup's) the hand, 1.0 m high, sagged 4.5 cm and stopped 2.7 cm short (620000)
APPROACH = 0.10  # m, the open jaw starts this far behind the grasp
REACH_CLEAR = 0.04  # m, the open hand passes at least this far from the mug and the items
# on the joint-space reach to the approach's start (where a grasp rotation lets it): that
# reach swept the hand through the mug and knocked it and both items over (620046,
# 620049); the body sways a few centimetres during it, hence the margin
PATH_SAMPLES = 16  # arm poses checked along that reach
PULL = 0.16  # m, the hand draws the item out this far along its axis (its lower end
# starts 8 cm below the mug's rim)
LIFTED = 0.05  # m, an item whose lower end rose this much counts as taken
RISE = 0.12  # m, the drawn item rises straight up before the arm swings to HOLD: drawn
# out, its lower end is 3-4 cm over the mug's rim, and the swing knocked the other item
# out of the mug (620000)
# Both items in the jaw (on some seeds they settle face to face in the mug and the jaw
# closes on the pair): the pair pivots about the pads, and RISE in 25 control steps and
# the swing to HOLD in 40 drove both handles 12 mm into the counter top at 2 m/s, where
# the wedged tines pushed the pads apart and shot the fork away at 23 m/s (620003).
# Raised BOTH_CARRY's 0.22 m in 40 steps and swung in 100, that pair went into the
# basket together; 620006's knife still left the jaw on the way up.
BOTH_CARRY = (0.22, 40, 100)  # m, control steps of the rise, control steps of the swing
HOLD = np.array([0.25, 0.18, 1.12])  # m, pinch in the pelvis frame (z in the world) while
# turning to the basket: the hanging item's lower end (16 cm below) clears the counter
DROP_STANCE = (0.22, 0.05, np.pi / 2)  # m, m, rad: pelvis facing the basket from the
# corner between the counter (front at x 0.40) and the door (near edge at y 0.31), the
# basket 0.37 m ahead and 0.10 m to the left; from beside the door facing +x the
# joint-space reach swung the hanging fork 0.6 m round (seed 620000) and stopped 9 cm
# short of the basket
TURN_TOLERANCE = (0.04, 0.08)  # m, rad: turns go through ``walk_to`` (``walk_near`` stops
# when the distance stalls, which a turn in place never shortens)
DROP_ABOVE = 0.08  # m, the lower end above the basket's rim before it goes down into a
# cell (let go 2 cm below the rim over the basket's centre, where the dividers cross,
# the fork toppled out over an outer wall on 3 of 10 seeds when the draft was written;
# at 0.03 the item, pivoting in the jaw on the joint-space reach, came in 3-4 cm low,
# caught its lower end on the near wall's rim, and the corrections dragged the basket
# and tray 5-10 cm along with it: 620010, 620046)
SET_HEIGHT = 0.015  # m, the lower end above the basket's floor when the jaw opens
RIM_CLEAR = 0.01  # m, the leaning item passes at least this far over the outer wall it
# leans across (a flat-held item is set down higher, onto the rims)
PLACE_TOLERANCE = 0.01  # m, the lower end's error over its cell before it goes down
PLACE_PASSES = 3  # corrections of the hand on the lower end's measured position
DROP_PITCHES = np.radians([20.0, 0.0, 40.0])  # the hand points this far down over the
# basket, in this order of preference (how low the item's lower end hangs below the hand
# turns with it)
# The per-step tracking (``_track``). Converged from the arm's commanded angles, each
# step's solve with the hand 4 cm off landed 0.6-1.4 rad away along the arm's redundancy;
# the commanded angles ran at the shared 2 rad/s limit, the arm lagged them by 0.1 rad,
# the body swayed with the arm, and the hand swung 5 cm either side of a fixed target
# while ``align``, measuring mid-swing, chased the swing until the hand knocked the mug
# over (620067). A few iterations a step, and toward a held target a share of the way
# there, let it settle. (With the share on moving targets too, the hand lagged a drawn
# item's path by 10 cm and the knife swung up out of the jaw: 620016.)
TRACK_ITERATIONS = 4  # solver iterations per control step
TRACK_SHARE = 0.2  # share of the way to that solution the commanded angles go per step
# while the hand's target is held (at most JOINT_STEP a joint)
TRIES = 3  # takes of an item in one round
ROUNDS = 2  # rounds over the items: an item still standing in the mug after its takes is
# taken again after the other (620036: three takes of the far fork missed, then the knife
# went into the basket, and the fork was never tried again)
UPRIGHT = np.radians(50)  # an item leaning further than this has fallen out of the mug
WITHDRAW = 0.08  # m, the open hand rises this far off the dropped item


class DishwasherLoadCutlery(DishwasherExpert):
    """Take the knife and the fork out of the mug with the left hand, one at a time, and
    drop each into the cutlery basket."""

    def script(self) -> Iterator[None]:
        yield from self.ready()
        yield from self.reach("right", *self.world_pose((RIGHT_TUCK, np.eye(3))), align=False)
        self.hand.pop("right")  # the right arm keeps these angles from now on
        for _ in range(ROUNDS):
            for item in sorted(ITEMS, key=lambda i: self.grasp_pose(i)[0][0]):
                yield from self.load(item)

    def load(self, item: str) -> Iterator[None]:
        """Take the item, carry it to the basket and drop it in, up to TRIES takes; not
        once it is in the basket or has fallen out of the mug (a lying item's plate is not
        across the jaw)."""
        for _ in range(TRIES):
            if self.in_basket(item) or not self.standing(item):
                return
            lows = {i: self.lower_end(i)[2] for i in ITEMS}
            yield from self.take(item)
            lifted = self.lifted(lows)
            if item in lifted:
                yield from self.carry(item, both=len(lifted) == len(ITEMS))
                yield from self.drop(item)
            else:  # missed: open, raise, try again
                yield from self.grip("left", JAW_OPEN, 5)
                pos, rot = self.commanded_pose("left")
                yield from self.move({"left": (pos - APPROACH * rot[:, 0], rot)}, 20)

    def reset(self) -> None:
        """Start a new episode, with no hand target tracked yet."""
        super().reset()
        self.tracked: dict[str, np.ndarray] = {}  # each hand's target at its last tracking

    def _track(self) -> None:
        """The shared per-step tracking, moving the arm only toward angles that bring the
        hand nearer its target pose (the weighted error of ``Kinematics.solve`` after
        TRACK_ITERATIONS) than the arm's present angles do, at most JOINT_STEP a joint
        per control step (``step_arm``); while the hand's target is held (not moving),
        only TRACK_SHARE of the way there. Toward a pose out of reach, the solves from
        one control step to the next chased one another through the arm's range: the
        hand wandered 15 cm off the item (seed 620001's approach) and 0.8 m off the
        basket (its placing corrections)."""
        for side, (pos, rot) in self.hand.items():
            target = pos + self.offset[side]
            now = self.kin.solve(side, target, rot, self.arm[side], iterations=1)[1]
            q, error = self.kin.solve(side, target, rot, self.arm[side],
                                      iterations=TRACK_ITERATIONS)
            held = side in self.tracked and np.array_equal(self.tracked[side], pos)
            self.tracked[side] = pos.copy()
            if error < now:
                share = TRACK_SHARE if held else 1.0
                self.step_arm(side, self.arm[side] + share * (q - self.arm[side]))

    def axis(self, item: str) -> np.ndarray:
        """The item's axis in the world, handle to blade or tines."""
        return self.kin.body_rot(item)[:, 2]

    def lower_end(self, item: str) -> np.ndarray:
        """The lower of the item's two ends, in the world."""
        pos, axis = self.kin.body_pos(item), self.axis(item)
        ends = (pos + HALF_LENGTH * axis, pos - HALF_LENGTH * axis)
        return min(ends, key=lambda end: end[2])

    def grasp_pose(self, item: str, pitch: float = GRASP_PITCH, turn: float = 0.0
                   ) -> tuple[np.ndarray, np.ndarray]:
        """The pinch site's grasp point on the item (its GRASP_AT up its axis) and the
        hand's rotation there: pointing ``pitch`` down, along the item's lean (either way,
        whichever is nearer forward) turned by ``turn`` about the vertical, at most
        MAX_YAW off forward, the jaw closing square to the item's axis. The plate's face
        may look anywhere about the axis: the closing pads turn the item about its axis
        in the mug until the plate lies flat between them (or hold it by its edges)."""
        axis = self.axis(item)
        lean = float(np.arctan2(axis[1], axis[0]))
        yaw = min((lean, lean - np.pi, lean + np.pi), key=abs)
        yaw = float(np.clip(yaw + turn, -MAX_YAW, MAX_YAW))
        ahead = pointing(pitch, yaw)
        across = np.cross(ahead, axis)
        across /= np.linalg.norm(across)
        if np.cross(ahead, across)[2] < 0:  # the hand's back up
            across = -across
        grasp = self.kin.body_pos(item) + GRASP_AT[item] * axis
        return grasp, np.column_stack([ahead, across, np.cross(ahead, across)])

    def grasp_candidates(self, item: str) -> list[tuple[float, float]]:
        """The grasp pitches and turns ``grasp_tilt`` tries, in its order: GRASP_TURNS,
        each with GRASP_PITCHES, leaving out those whose rotation (MAX_YAW clips the
        yaw) repeats an earlier one."""
        candidates: list[tuple[float, float]] = []
        rotations: list[np.ndarray] = []
        for turn in GRASP_TURNS:
            for pitch in GRASP_PITCHES:
                rot = self.grasp_pose(item, pitch, turn)[1]
                if not any(np.allclose(rot, seen) for seen in rotations):
                    rotations.append(rot)
                    candidates.append((float(pitch), float(turn)))
        return candidates

    def grasp_tilt(self, item: str) -> tuple[float, float]:
        """The first of ``grasp_candidates`` with which the hand reaches both the
        approach's start and the grasp from where the body stands, on a reach that
        passes REACH_CLEAR from the mug and the items; failing that, the reachable one
        with the most clearance; with none reachable, the nearest miss."""
        misses, crowded = [], []
        for pitch, turn in self.grasp_candidates(item):
            grasp, rot = self.grasp_pose(item, pitch, turn)
            q_start, start_error = self.plan("left", grasp - APPROACH * rot[:, 0], rot)
            error = max(start_error, self.plan("left", grasp, rot)[1])
            if error >= REACHABLE:
                misses.append((error, pitch, turn))
                continue
            clearance = self.reach_clearance(q_start)
            if clearance >= REACH_CLEAR:
                return pitch, turn
            crowded.append((-clearance, pitch, turn))
        _, pitch, turn = min(crowded or misses)
        return pitch, turn

    def reach_clearance(self, q: np.ndarray) -> float:
        """The left hand's least distance from the mug and the items on the joint-space
        reach from the arm's commanded angles to ``q`` (PATH_SAMPLES poses, the body as
        it stands; capped at REACH_CLEAR)."""
        start = self.arm["left"]
        return min(min(self.kin.distance("left", start + share * (q - start), body,
                                         horizon=REACH_CLEAR)
                       for body in ("mug", *ITEMS))
                   for share in np.linspace(0.0, 1.0, PATH_SAMPLES))

    def standing(self, item: str) -> bool:
        """Whether the item still stands over the counter, within UPRIGHT of vertical (in
        the mug)."""
        pos = self.kin.body_pos(item)
        return bool(pos[0] > ds.COUNTER_X[0] and pos[2] > ds.COUNTER_TOP
                    and self.axis(item)[2] > np.cos(UPRIGHT))

    def rim(self) -> float:
        """The height of the basket's rim."""
        return float(self.kin.body_pos("basket")[2] + ds.BASKET_HALF[2])

    def in_basket(self, item: str) -> bool:
        """Whether the item's lower end lies inside the basket's outline, below its rim."""
        end, basket = self.lower_end(item), self.kin.body_pos("basket")
        return bool(np.all(np.abs(end[:2] - basket[:2]) < ds.BASKET_HALF[:2])
                    and end[2] < self.rim())

    def take(self, item: str) -> Iterator[None]:
        """Walk up to the counter with the hand raised, bring the open jaw APPROACH behind
        the item's plate, slide it on, close and draw the item out along its axis."""
        yield from self.reach("left", *self.world_pose((HIGH_READY, np.eye(3))), align=False)
        if abs(self.kin.pelvis_pose()[2]) > TURN_TOLERANCE[1]:  # back from the basket
            yield from self.walk_to(*self.stance(item), 0.0, tolerance=TURN_TOLERANCE,
                                    min_speed=MIN_WALK)
        yield from self.walk_near(*self.stance(item))
        yield from self.grip("left", JAW_OPEN, 5)
        self.offset["left"] = np.zeros(3)
        tilt = self.grasp_tilt(item)
        grasp, rot = self.grasp_pose(item, *tilt)
        yield from self.reach("left", grasp - APPROACH * rot[:, 0], rot)
        yield from self.walk_near(*self.stance(item))  # the reach turns the body
        grasp, rot = self.grasp_pose(item, *tilt)
        yield from self.move({"left": (grasp, rot)}, 40)
        yield from self.align("left")
        yield from self.grip("left", GRIP_CLOSED, 12)
        yield from self.wait(5)
        yield from self.seat(item, rot)
        yield from self.move({"left": (self.hand["left"][0] + PULL * self.axis(item), rot)}, 40,
                             contact=True)

    def plate(self, item: str) -> tuple[float, float]:
        """The span of the item's blade or tines along its axis from its origin, read off
        the model."""
        geom = self.kin.model.geom(f"{item}_blade" if item == "knife" else f"{item}_tine0")
        return float(geom.pos[2] - geom.size[2]), float(geom.pos[2] + geom.size[2])

    def pad_half_height(self) -> float:
        """The left pads' half-extent across the hand (along a held item's axis), read off
        the model."""
        return float(self.kin.model.geom(GRIPPER_PADS["left"][0]).size[2])

    def seat_shift(self, item: str) -> np.ndarray:
        """How far the hand should move to hold the item's plate well between the pads,
        measured from the pinch site's pose and the item's: along the hand to bring the
        item's axis within SEAT_DEPTH of the pinch, and along the item's axis to the
        grasp point where the pads cover less than SEAT_OVERLAP of the plate. Zero where
        the jaw holds it so, and where it does not hold it at all (SEAT_HELD)."""
        pinch, rot = self.kin.pinch_pose("left")
        centre, axis = self.kin.body_pos(item), self.axis(item)
        along = float((pinch - centre) @ axis)
        depth, across = rot[:, :2].T @ (centre + along * axis - pinch)
        shift = np.zeros(3)
        if abs(across) > SEAT_HELD[0] or abs(depth) > SEAT_HELD[1]:
            return shift
        ahead = rot[:, 0]
        if abs(depth) > SEAT_DEPTH:
            shift += depth * ahead
        low, high = self.plate(item)
        pad = self.pad_half_height()
        covered = min(high, along + pad) - max(low, along - pad)
        if covered < SEAT_OVERLAP:
            shift += (GRASP_AT[item] - along) * axis
        return shift

    def seat(self, item: str, rot: np.ndarray) -> Iterator[None]:
        """With the jaw closed on the item still standing in the mug: where it holds the
        plate off its pads (``seat_shift``), open it, move the hand by that much and close
        it again, up to SEATS times."""
        for _ in range(SEATS):
            shift = self.seat_shift(item)
            if not shift.any():
                return
            yield from self.grip("left", JAW_OPEN, 5)
            yield from self.move({"left": (self.hand["left"][0] + shift, rot)}, 20)
            yield from self.grip("left", GRIP_CLOSED, 12)
            yield from self.wait(5)

    def stance(self, item: str) -> tuple[float, float]:
        """Pelvis x, y for taking ``item``: its grasp point STANCE_AHEAD ahead (as close
        to the counter as the feet allow) and CUP_ASIDE to the left."""
        grasp = self.grasp_pose(item)[0]
        return min(grasp[0] - STANCE_AHEAD, CUP_STANCE_LIMIT), grasp[1] - CUP_ASIDE

    def lifted(self, lows: dict[str, float]) -> list[str]:
        """The items whose lower end rose more than LIFTED above its height in ``lows``."""
        return [item for item in ITEMS if self.lower_end(item)[2] > lows[item] + LIFTED]

    def carry(self, item: str, both: bool = False) -> Iterator[None]:
        """Raise the item RISE (BOTH_CARRY's rise, slower, with ``both`` items in the
        jaw), draw it straight back over HOLD's spot at that height (a joint-space swing
        from over the mug tilted the held fork into the other item and knocked it out,
        620001), swing it to HOLD over the counter's front, turn to face the basket
        (DROP_STANCE), the hand going round with the body, then bring the item's lower end
        DROP_ABOVE over the rim above its cell (``place``: a joint-space reach, as tracked
        the hand wandered off to the left) and down to ``set_height``. Up to PLACE_PASSES
        corrections on the lower end's measured position follow the reach, each a
        joint-space reach planned from the measured pinch site toward the cell where the
        basket now stands (the tray slides when pushed): the item pivots in the jaw on
        the way (the knife from 5 to 35 degrees off vertical, its lower end 10 cm off the
        cell), and Cartesian corrections on the commanded pose stalled there and piled
        up (the target 0.5 m off, 620004)."""
        rise, rise_steps, swing_steps = BOTH_CARRY if both else (RISE, 25, 40)
        pos, rot = self.hand["left"]
        yield from self.move({"left": (pos + rise * UP, rot)}, rise_steps, contact=True)
        back = self.world_pose((HOLD, None))[0]
        back[2] = pos[2] + rise
        yield from self.move({"left": (back, rot)}, swing_steps, contact=True)
        yield from self.reach("left", *self.world_pose((HOLD, rotation(pointing(0.0)))),
                              swing_steps, align=False)
        yield from self.walk_to(*DROP_STANCE, tolerance=TURN_TOLERANCE, min_speed=MIN_WALK)
        yield from self.wait(15)  # the item swings after the turn
        target, rot, above = self.place(item)
        cell = above - self.kin.body_pos("basket")  # the tray slides if pushed
        yield from self.reach("left", target, rot, 60, align=False)
        for _ in range(PLACE_PASSES):
            yield from self.wait(15)
            above = self.kin.body_pos("basket") + cell
            error = above - self.lower_end(item)
            if np.linalg.norm(error) < PLACE_TOLERANCE:
                break
            pinch = self.kin.pinch_pose("left")[0]
            yield from self.reach("left", pinch + error, rot, 20, align=False)
        down = (self.set_height(item, above) - self.lower_end(item)[2]) * UP
        yield from self.move({"left": (self.hand["left"][0] + down, rot)}, 45, contact=True)
        yield from self.wait(10)

    def place(self, item: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Where the pinch site goes, and with which rotation, to bring the held item's
        lower end DROP_ABOVE over the basket's rim above a cell, and that point.

        The item's pose in the hand (the grip holds it so) predicts its ends for each of
        DROP_PITCHES. The cell is one on the far side from where the item leans, so
        that it leans across the basket and its centre of mass (8.9 cm up from the
        handle's end) stays inside when it is let go (leaning sideways from a cell by
        an outer wall, it is past that wall's rim, 6.7 cm away, and tips out): the
        corner cell opposite the lean if the hand reaches it, at the rim and down at the
        floor, else the next nearest, the row on the lean's side never; each cell with
        the first pitch that reaches it. With no such reach, the nearest miss."""
        pinch, now = self.kin.pinch_pose("left")
        centre, axis = self.kin.body_pos(item), self.axis(item)
        basket, rim = self.kin.body_pos("basket"), self.rim()
        extent = np.abs(ds.BASKET_CELLS).max(axis=0)
        plans = []
        for index, pitch in enumerate(DROP_PITCHES):
            rot = rotation(pointing(pitch, DROP_STANCE[2]))
            low, high = sorted((rot @ now.T @ (centre + sign * HALF_LENGTH * axis - pinch)
                                for sign in (1.0, -1.0)), key=lambda end: end[2])
            corner = np.where(high[:2] < low[:2], 1.0, -1.0) * extent
            for cell in ds.BASKET_CELLS:
                if cell[1] == -corner[1]:
                    continue  # the row on the lean's side
                above = np.array([*(basket[:2] + cell), rim + DROP_ABOVE])
                target = above - low
                error = max(self.kin.solve("left", target + drop * UP + self.offset["left"],
                                           rot, self.arm["left"], iterations=100)[1]
                            for drop in (0.0, -(DROP_ABOVE + ds.BASKET_HALF[2])))
                rank = float(np.linalg.norm(cell - corner)) + 0.001 * index
                plans.append((error >= REACHABLE, rank, error, target, rot, above))
        _, _, _, target, rot, above = min(plans, key=lambda plan: plan[:3])
        return target, rot, above

    def set_height(self, item: str, above: np.ndarray) -> float:
        """The lower end's height for letting go under ``above``: SET_HEIGHT over the
        basket's floor, or higher where the leaning item would otherwise pass less than
        RIM_CLEAR over the rim of the outer wall it leans across."""
        axis = self.axis(item)
        up = axis if axis[2] >= 0 else -axis
        across = float(np.linalg.norm(up[:2]))
        basket = self.kin.body_pos("basket")
        height = basket[2] + ds.BASKET_FLOOR + SET_HEIGHT
        if across < 1e-6:
            return height
        direction = up[:2] / across
        inner = ds.BASKET_HALF[:2] - ds.BASKET_WALL  # the walls' inner faces from the centre
        wall = min((np.sign(d) * inner[k] - (above[k] - basket[k])) / d
                   for k, d in enumerate(direction) if abs(d) > 1e-6)  # m, to that wall
        if wall >= 2 * HALF_LENGTH * across:  # the item ends short of it
            return height
        return max(height, self.rim() + RIM_CLEAR - wall * up[2] / across)

    def drop(self, item: str) -> Iterator[None]:
        """Open the jaw, let the item fall into the basket, raise the open hand."""
        yield from self.grip("left", 0.0, 8)
        yield from self.wait(20)
        pos, rot = self.hand["left"]
        yield from self.move({"left": (pos + WITHDRAW * UP, rot)}, 20)


EXPERTS: dict[str, type[Expert]] = {"dishwasher_load_cutlery": DishwasherLoadCutlery}
