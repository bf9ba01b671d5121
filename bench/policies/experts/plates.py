"""Experts for move_plate and move_two_plates (bench.tasks.tabletop): plates from
the left draining rack to the right one.

A plate stands on edge facing the robot's right in both racks, so the move is a
translation. The left hand, pointing forward and GRASP_PITCH down with its jaw across
the plate's thickness, comes down over the plate's top rim and pinches it there: the
plate hangs below the pinch and keeps its orientation (a turn in its own plane would
not matter either). The hand lifts it until its lowest point clears the dividers, the
robot side-steps toward the right rack with the arm still, and the hand carries the
plate over the target slot and lowers it in, closed loop on where the oracle has the
plate, then lets go and draws back up.

move_two_plates (``MoveTwoPlates``) does this for each plate, with the additions its
traced failures asked for: the arm raised before each walk, the stance checked, a failed
pick repeated, and the arm's branch chosen for the move over the rim (its docstring).

The hands do not learn the shared continuous offsets here (on these long, loaded
moves they overshoot): each move is followed by explicit corrections of the hand's
target by the measured error (of the pinch site before the grasp, of the plate after).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from bench.policies.experts.kinematics import rotation
from bench.policies.experts.script import KEYFRAME_ARMS, Expert
from bench.policies.experts.tabletop import UP, TableTopExpert
from bench.tasks.props import PLATE_RADIUS, RACK_PLATE_HEIGHT, rack_slot_offsets

SIDE = "left"
STANCE_REACH = 0.40  # m, the plate ahead of the pelvis while the hand works on it (a hand
# pitched down reaches 1.0-1.06 m high well this far out, not at 0.30 m)
STANCE_ASIDE = 0.16  # m, and this far toward the left hand's side
STANCE_TOLERANCE = (0.03, 0.08)  # m, rad
STANCE_MIN_SPEED = 0.1  # m/s: the embedded WBC does not step for much less
GRASP_PITCH = np.radians(32)  # the hand points this far below level, its jaw across y:
# the gripper housing (6 cm behind the pinch site) then clears the rim with the pinch
# site up to 3.1 cm below the top (a level hand's housing meets the rim 5 mm below it);
# the deeper the pinch, the slower the plate creeps down in the jaw
GRASP = rotation([np.cos(GRASP_PITCH), 0.0, -np.sin(GRASP_PITCH)])
CARRY_PITCH = np.radians(10)  # the hand while it carries the plate: less pitched reaches
# higher (a level hand turns the plate 25 degrees in the jaw and it creeps out within
# about 9 s; at the grasp's pitch a loaded hand swings 2-10 cm about its target)
CARRY = rotation([np.cos(CARRY_PITCH), 0.0, -np.sin(CARRY_PITCH)])
APPROACH_PITCH = np.radians(10)  # the open hand on its way over the rim
APPROACH = rotation([np.cos(APPROACH_PITCH), 0.0, -np.sin(APPROACH_PITCH)])
PINCH_DEPTH = 0.030  # m, the pinch site below the top of the rim (seed 620004: at 0.022 m
# with the hand 25 degrees down the plate crept out of the jaw before it was seated)
JAW_OPEN = 0.55  # gripper closure while the jaw comes down over the rim (pads 3.4 cm apart)
BEHIND, BEHIND_RISE = 0.11, 0.03  # m: the hand first comes (in joint space, from the
# hanging arm) this far behind and above the rim's top, clear of the plate, then rises
ABOVE = 0.07  # m, the open jaw above the rim before it comes down
DIVIDER_TOP = 0.078  # m, the rack's dividers reach this far above its origin
CLEARANCE = 0.05  # m, the carried plate's lowest point above the dividers (the walk
# bounces it about 2 cm)
MAX_SAG = 0.10  # m, the hand's target at most this far above the pinch site
ENTRY = 0.012  # m, the plate's lowest point above the dividers while it is aligned
SEAT = 0.004  # m, the plate's centre above its seat when the jaw lets go
SHORT = 0.05  # m, the walk to the right rack stops this far short of the slot (the
# robot coasts on after the stop; the hand carries the rest)
WALKS = 3  # walks at most toward the target slot
ARM_CARRY = np.array([0.06, 0.07])  # m, x and y: the hand carries the plate the rest
STILL, STILL_STEPS = 0.003, 100  # m per 5 control steps: the pelvis has stopped
HELD = 0.16  # m, the plate's centre at most this far from the pinch while it is held
STEPS_PER_METRE, MIN_STEPS = 600, 25  # control steps of a hand move (slow: a quick
# move of the loaded arm overshoots by several centimetres)
CORRECTIONS = 4  # corrections of the hand's target after a move
SETTLED = 0.003  # m, an error this small needs no correction
LIFT_TRIES = 6  # raises of the hand until the plate clears the dividers
# move_two_plates
STAGE_BACK, STAGE_RISE = 0.15, 0.07  # m: the hand rises (in joint space, before the
# walk to the plate) to where it will stand this far behind and above the rim's top,
# clear of every plate, and comes forward over the rim in a straight line from there (a
# joint-space move from the hanging arm at the stance swept a neighbouring plate off the
# rack on seeds 620000 and 620003)
PICK_TRIES = 2  # picks of a plate at most (a jaw that landed on a rim lifts nothing)
STANCE_TRIES = 3  # walks to the stance at most (the robot coasts on after a long walk)
STANCE_CLOSE = 0.015  # m: a stance this much closer than STANCE_REACH is walked again
# (3-5 cm too close, the pitched hand did not reach the rim on seeds 620002 and 620008)
STANCE_OFF = 0.03  # m: a stance further or more aside than this is walked again (4 cm too
# far right of the leftmost slot, the hand did not reach its rim on seed 620001)
STANCE_SETTLE = 25  # control steps of standing before the stance is checked
RETRACT = 0.15  # m, the hand after a place draws back this far at its height
STAGE_OVER = np.array([STAGE_BACK, 0.0, ABOVE - STAGE_RISE])  # m, from the stage to the
# jaw over the rim (where the straight move after the stage goes)


class MovePlates(TableTopExpert):
    """Each plate in turn: pinch its top rim, lift, side-step, lower into a slot of the
    right rack, release."""

    plates: tuple[str, ...] = ("plate",)
    target_slots: tuple[int, ...] = (5,)  # right-rack slots, in the order of the picks

    def reset(self) -> None:
        super().reset()
        self.rot = CARRY  # the hand's orientation

    def plate_names(self) -> tuple[str, ...]:
        """The task's plates, the one nearest the right rack first."""
        return tuple(sorted(self.plates, key=lambda name: self.kin.body_pos(name)[1]))

    def script(self) -> Iterator[None]:
        for plate, slot in zip(self.plate_names(), self.target_slots, strict=True):
            yield from self.pick(plate)
            if self.holding(plate):
                yield from self.place(plate, slot)
            yield from self.grip(SIDE, JAW_OPEN, 10)
            pos, _ = self.commanded_pose(SIDE)
            yield from self.shift(pos + 0.10 * UP, 40)

    # ----- the plate and the hand ---------------------------------------------------------

    def rim_top(self, plate: str) -> np.ndarray:
        """The highest point of the plate's rim."""
        return self.kin.body_pos(plate) + PLATE_RADIUS * in_plane(self.kin.body_rot(plate), UP)

    def lowest(self, plate: str) -> np.ndarray:
        """The lowest point of the plate's rim."""
        return self.kin.body_pos(plate) - PLATE_RADIUS * in_plane(self.kin.body_rot(plate), UP)

    def divider_top(self, rack: str = "rack_left") -> float:
        """The height of the top of ``rack``'s dividers."""
        return float(self.kin.body_pos(rack)[2] + DIVIDER_TOP)

    def holding(self, plate: str) -> bool:
        """Whether the plate is still in the hand (its centre near the pinch)."""
        distance = np.linalg.norm(self.kin.body_pos(plate) - self.kin.pinch_pose(SIDE)[0])
        return bool(distance < HELD)

    def shift(self, pos: np.ndarray, steps: int | None = None) -> Iterator[None]:
        """Move the hand's target to ``pos`` in the current hand orientation (no offset
        learning)."""
        if steps is None:
            distance = float(np.linalg.norm(pos - self.commanded_pose(SIDE)[0]))
            steps = max(MIN_STEPS, int(distance * STEPS_PER_METRE))
        yield from self.move({SIDE: (pos, self.rot)}, steps, contact=True)

    def correct(self, error: Callable[[], np.ndarray], plate: str | None = None
                ) -> Iterator[None]:
        """Shift the hand's target by ``error()`` (target minus measured) until it is
        below SETTLED, at most CORRECTIONS times; with ``plate``, only while the hand
        holds it."""
        for _ in range(CORRECTIONS):
            yield from self.wait(10)
            if plate is not None and not self.holding(plate):
                return
            e = error()
            if np.linalg.norm(e) < SETTLED:
                return
            pos, _ = self.commanded_pose(SIDE)
            yield from self.shift(pos + e)

    def joints_to(self, pos: np.ndarray, steps: int, then: np.ndarray | None = None
                  ) -> Iterator[None]:
        """Move the arm in joint space to the better of two inverse-kinematics
        solutions for the pinch at ``pos`` in the current hand orientation (from the arm's
        angles and from the keyframe's), then hold that pose as the hand's target. With
        ``then``, the better one is the one from which the pinch also reaches ``then``
        (where the straight move that follows goes): from a folded arm, the solution
        nearest its angles can lie on a branch that meets a shoulder limit on the way."""
        def cost(solution: tuple[np.ndarray, float]) -> float:
            q, error = solution
            if then is None:
                return error
            return error + self.kin.solve(SIDE, then, self.rot, q, iterations=200)[1]

        solutions = [self.kin.solve(SIDE, pos, self.rot, start, iterations=200)
                     for start in (self.arm[SIDE], KEYFRAME_ARMS[SIDE])]
        q, _ = min(solutions, key=cost)
        yield from self.joints({SIDE: q}, steps)
        yield from self.shift(pos, 10)

    # ----- the script's parts -------------------------------------------------------------

    def pick(self, plate: str) -> Iterator[None]:
        """Stand before the plate, bring the open jaw down over its top rim, pinch, and
        lift it until its lowest point clears the dividers."""
        top = self.rim_top(plate)
        yield from self.walk_to(top[0] - STANCE_REACH, top[1] - STANCE_ASIDE, 0.0,
                                tolerance=STANCE_TOLERANCE, min_speed=STANCE_MIN_SPEED)
        yield from self.grip(SIDE, JAW_OPEN, 10)
        # up behind the rim, then forward over it (the less pitched hand reaches higher)
        self.rot = APPROACH
        behind = self.rim_top(plate) + np.array([-BEHIND, 0.0, BEHIND_RISE])
        yield from self.joints_to(behind, 60)
        yield from self.shift(behind + (ABOVE - BEHIND_RISE) * UP)
        yield from self.pinch(plate)

    def pinch(self, plate: str) -> Iterator[None]:
        """From behind and above the rim: over it, corrected onto it, down around it,
        close the jaw, and lift the plate clear of the dividers."""
        yield from self.shift(self.rim_top(plate) + ABOVE * UP)

        def pinch_error() -> np.ndarray:
            return self.rim_top(plate) + ABOVE * UP - self.kin.pinch_pose(SIDE)[0]

        yield from self.correct(pinch_error)
        pos, _ = self.commanded_pose(SIDE)
        self.rot = GRASP
        yield from self.shift(pos - (ABOVE + PINCH_DEPTH) * UP, 50)
        yield from self.wait(10)
        yield from self.grip(SIDE, 1.0, 15)
        yield from self.wait(10)
        self.rot = CARRY
        yield from self.raise_clear(plate)

    def raise_clear(self, plate: str) -> Iterator[None]:
        """Raise the hand until the plate's lowest point is CLEARANCE above the left
        rack's dividers (the arm sags under the plate), the hand's target at most
        MAX_SAG above the pinch site."""
        rack_top = self.divider_top()
        for _ in range(LIFT_TRIES):
            rise = rack_top + CLEARANCE - self.lowest(plate)[2]
            pos, _ = self.commanded_pose(SIDE)
            rise = min(rise, self.kin.pinch_pose(SIDE)[0][2] + MAX_SAG - pos[2])
            if rise < SETTLED:
                break
            yield from self.shift(pos + rise * UP, max(20, int(rise * 500)))
            yield from self.wait(10)

    def place(self, plate: str, slot: int) -> Iterator[None]:
        """Side-step to the right rack, lower the plate into ``slot`` and let go."""
        target = slot_centre(self.kin, "rack_right", slot)
        for _ in range(WALKS):
            pelvis = self.kin.pelvis_pose()
            error = (target - self.kin.body_pos(plate))[:2]
            if np.all(np.abs(error) < ARM_CARRY):
                break
            walk = error + np.array([0.0, SHORT if error[1] < 0 else -SHORT])
            # the hand's target (sag included) goes along in the pelvis frame
            local = to_frame(pelvis, self.commanded_pose(SIDE)[0])
            yield from self.walk_to(pelvis[0] + walk[0], pelvis[1] + walk[1], 0.0,
                                    tolerance=STANCE_TOLERANCE, min_speed=STANCE_MIN_SPEED)
            yield from self.stand_still()
            self.hand[SIDE] = (from_frame(self.kin.pelvis_pose(), local), self.rot)
        if not self.holding(plate):
            return
        # over the slot at the carrying height, then down until the plate's lowest point
        # is ENTRY above the dividers, each followed by horizontal corrections
        yield from self.carry_to(plate, target, flat)
        yield from self.correct(lambda: flat(target - self.kin.body_pos(plate)), plate)
        entry = target.copy()
        entry[2] = self.divider_top("rack_right") + ENTRY + PLATE_RADIUS
        yield from self.carry_to(plate, entry)
        yield from self.correct(lambda: flat(target - self.lowest(plate)), plate)
        yield from self.carry_to(plate, target + SEAT * UP, steps=40)
        yield from self.wait(10)

    def stand_still(self) -> Iterator[None]:
        """Wait (at most STILL_STEPS) until the pelvis has stopped (the robot coasts
        on after a walk)."""
        for _ in range(STILL_STEPS // 5):
            before = self.kin.pelvis_pose()[:2]
            yield from self.wait(5)
            if np.linalg.norm(self.kin.pelvis_pose()[:2] - before) < STILL:
                return

    def carry_to(self, plate: str, centre: np.ndarray,
                 part: Callable[[np.ndarray], np.ndarray] = np.asarray,
                 steps: int | None = None) -> Iterator[None]:
        """Move the hand's target by (``part`` of) the plate centre's error from
        ``centre``."""
        pos, _ = self.commanded_pose(SIDE)
        yield from self.shift(pos + part(centre - self.kin.body_pos(plate)), steps)


class MoveTwoPlates(MovePlates):
    """move_two_plates: MovePlates' pick and place for each plate, with the arm raised
    before each walk to a stance, the stance walked again until it is within reach, a
    plate that did not come up picked once more, and the hand drawn back after each
    place. The first plate goes to right-rack slot 1 and the second to slot 4, so the
    second carry does not pass over the first plate (the carried plate's lowest point
    clears the dividers, not a seated plate: on seed 620001 it knocked the first plate
    over on its way to the slot beyond).

    Both joint-space reaches to the stage behind the rim take the arm branch from which
    the straight move over the rim is also reachable (``joints_to``'s ``then``). From
    the arm folded by the first place, the solution nearest its angles met the
    shoulder-roll limit 60 % of the way over the rim (0.12 m short on seeds 620000 and
    620001), and the corrections that followed chased the hand's target 0.4 m off.
    Adjacent slots are no obstacle: the descending finger pushes the neighbouring plate
    1.4-1.5 cm aside in its slot."""

    plates = ("plate_a", "plate_b")
    target_slots = (1, 4)

    def script(self) -> Iterator[None]:
        for plate, slot in zip(self.plate_names(), self.target_slots, strict=True):
            for _ in range(PICK_TRIES):
                yield from self.pick(plate)
                lifted = self.lifted(plate)
                if lifted and self.holding(plate):
                    yield from self.place(plate, slot)
                yield from self.grip(SIDE, JAW_OPEN, 10)
                pos, _ = self.commanded_pose(SIDE)
                yield from self.shift(pos + 0.10 * UP, 40)
                yield from self.retract()
                if lifted:
                    break

    def lifted(self, plate: str) -> bool:
        """Whether the plate's lowest point is above the left rack's dividers."""
        return bool(self.lowest(plate)[2] > self.divider_top())

    def pick(self, plate: str) -> Iterator[None]:
        """Raise the hand to where it will stand behind the rim, walk to the stance with
        the arm still, come over the rim and pinch the plate. A hanging hand first
        rises to the ready pose in a straight line."""
        if self.kin.pinch_pose(SIDE)[0][2] < self.divider_top():
            yield from self.ready(SIDE)
        self.rot = APPROACH
        stage = np.array([STANCE_REACH - STAGE_BACK, STANCE_ASIDE,
                          self.rim_top(plate)[2] + STAGE_RISE])
        pelvis = self.kin.pelvis_pose()
        yield from self.joints_to(from_frame(pelvis, stage), 60,
                                  then=from_frame(pelvis, stage + STAGE_OVER))
        yield from self.stand_at(plate)
        yield from self.grip(SIDE, JAW_OPEN, 10)
        stage = self.rim_top(plate) + ABOVE * UP - STAGE_OVER
        yield from self.joints_to(stage, 30, then=stage + STAGE_OVER)
        yield from self.pinch(plate)

    def stand_at(self, plate: str) -> Iterator[None]:
        """Walk to the stance for ``plate``'s rim, again while the robot has come to
        stand more than STANCE_CLOSE closer than STANCE_REACH or STANCE_OFF further or
        aside of it."""
        for _ in range(STANCE_TRIES):
            top = self.rim_top(plate)
            yield from self.walk_to(top[0] - STANCE_REACH, top[1] - STANCE_ASIDE, 0.0,
                                    tolerance=STANCE_TOLERANCE, min_speed=STANCE_MIN_SPEED)
            yield from self.stand_still()
            yield from self.wait(STANCE_SETTLE)
            local = to_frame(self.kin.pelvis_pose(), top)
            if (STANCE_REACH - STANCE_CLOSE < local[0] < STANCE_REACH + STANCE_OFF
                    and abs(local[1] - STANCE_ASIDE) < STANCE_OFF):
                return

    def retract(self) -> Iterator[None]:
        """Draw the hand back RETRACT toward the pelvis at its height (clear of the racks
        for the walk and the next joint-space move)."""
        pos, _ = self.commanded_pose(SIDE)
        local = to_frame(self.kin.pelvis_pose(), pos)
        local[0] -= RETRACT
        yield from self.shift(from_frame(self.kin.pelvis_pose(), local))


def in_plane(rot: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """The unit vector nearest ``direction`` in the plane of a plate whose face normal is
    the local z axis (column 2 of ``rot``)."""
    normal = rot[:, 2]
    v = direction - (direction @ normal) * normal
    return v / np.linalg.norm(v)


def flat(vector: np.ndarray) -> np.ndarray:
    """The horizontal part of a vector."""
    return np.array([vector[0], vector[1], 0.0])


def to_frame(pelvis: np.ndarray, point: np.ndarray) -> np.ndarray:
    """A world point in the frame of a pelvis pose (x, y, yaw); z stays world height."""
    cos, sin = np.cos(pelvis[2]), np.sin(pelvis[2])
    dx, dy = point[0] - pelvis[0], point[1] - pelvis[1]
    return np.array([cos * dx + sin * dy, -sin * dx + cos * dy, point[2]])


def from_frame(pelvis: np.ndarray, local: np.ndarray) -> np.ndarray:
    """The world point of ``local``, given in the frame of a pelvis pose (x, y, yaw)."""
    cos, sin = np.cos(pelvis[2]), np.sin(pelvis[2])
    return np.array([pelvis[0] + cos * local[0] - sin * local[1],
                     pelvis[1] + sin * local[0] + cos * local[1], local[2]])


def slot_centre(kin, rack: str, slot: int) -> np.ndarray:
    """World position of a seated plate's centre in ``slot`` of ``rack``."""
    local = np.array([0.0, rack_slot_offsets()[slot], RACK_PLATE_HEIGHT])
    return kin.body_pos(rack) + kin.body_rot(rack) @ local


EXPERTS: dict[str, type[Expert]] = {"move_plate": MovePlates, "move_two_plates": MoveTwoPlates}
