"""Experts for the table-top tasks (bench.tasks.tabletop).

Shared habits: the hands first rise to a ready pose in front of the chest (the
keyframe hands hang below the table top), the robot then walks so that the object
sits at a reach the arm handles well, and every arm motion stays in front of the torso.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from bench.policies.experts.kinematics import rot_x, rotation
from bench.policies.experts.script import REACHABLE, Expert, min_jerk
from bench.tasks.props import TABLE_TOP
from bench.tasks.tabletop import CUP_HEIGHT

LEVEL = np.eye(3)  # pinch frame: hand pointing forward, jaw horizontal
UP = np.array([0.0, 0.0, 1.0])
READY = np.array([0.22, 0.20, 0.86])  # m, pinch in the pelvis frame (y mirrored per side)
STANCE_REACH = 0.34  # m, object ahead of the pelvis when working on it
STANCE_ASIDE = 0.12  # m, object beside the pelvis, toward the working hand
STANCE_LIMIT = 0.18  # m, pelvis x at most (walking in, it stalls at 0.17-0.19)
STANCE_TOLERANCE = (0.04, 0.08)  # m, rad: the gait sways the pelvis about 3 cm sideways
STANCE_MIN_SPEED = 0.1  # m/s: the embedded WBC does not step for much less
# flip_cup
FLIP_STANCE = 0.30  # m, cup ahead of the pelvis
FLIP_STANCE_LIMIT = 0.24  # m, pelvis x at most with both hands raised (the thighs meet
# the table's edge at about 0.23)
FLIP_ASIDE = (0.11, 0.20)  # m, the cup beside the pelvis toward the working hand
STANCE_WALKS = 3  # walks at most to get there
GRIP_ABOVE = 0.03  # m, the pinch site above the upside-down cup's centre (the arm reaches
# higher further; the pads, 2.4 cm high, end just below its top); after the turn it is
# this far below the centre
GRIP_BEHIND = 0.01  # m, and this far behind it (the pads are 5.6 cm long)
APPROACH = np.array([-0.10, 0.0, 0.0])  # m, the open jaw starts this far from the grasp
SERVO_STEPS = 50  # control steps for the slide onto the cup
SERVO_GAIN = 0.08  # share of the sideways and vertical error added to the offset per step
REACH_STEPS = 60  # control steps for a joint-space reach
SETTLE_ARM = 15  # control steps for the arm to settle after a joint-space move
LIFT = 0.08  # m, the cup's rim clears the table while it turns
FLIP_STEPS = 60  # control steps for the half turn
PLACE_STEPS = 40  # control steps for the turned cup to come down
WITHDRAW = 0.08  # m, the open jaw draws back this far before the arm rises
WITHDRAW_LEGS = 4  # the draw-back is re-aimed this often, centring the cup across the jaw
WITHDRAW_LEG_STEPS = 10  # control steps per leg
PLACE_DROP = 0.008  # m, the cup's bottom above the table when the jaw opens
WRIST_ROLL = 4  # index of the wrist roll among an arm's joints
ROLL_START = 1.6  # rad, the wrist roll (either sign) the grip is solved from
TURN_SHIFTS = ((0.0, 0.0, 0.0), (0.05, 0.0, 0.0), (0.0, 0.0, 0.05), (0.05, 0.0, 0.05),
               (0.10, 0.0, 0.0))  # m, where the cup may turn, relative to LIFT over the grasp
IK_STARTS = 16  # inverse-kinematics starts for a joint-space reach
IK_SPREAD = 0.3  # rad, spread of the perturbed starts


def side_sign(side: str) -> float:
    """+1 for the left hand, -1 for the right (the sign of its y in the body frame)."""
    return 1.0 if side == "left" else -1.0


class TableTopExpert(Expert):
    """An Expert with the helpers the table-top experts share."""

    def ready(self, *sides: str, steps: int = 50) -> Iterator[None]:
        """Raise the hands to the ready pose in front of the chest."""
        yield from self.move({side: self.ready_pose(side) for side in sides}, steps)

    def ready_pose(self, side: str) -> tuple[np.ndarray, np.ndarray]:
        """The ready pose's pinch position and rotation in the world, for the pelvis as
        it stands now."""
        x, y, yaw = self.kin.pelvis_pose()
        local = READY * np.array([1.0, side_sign(side), 1.0])
        world = np.array([x + np.cos(yaw) * local[0] - np.sin(yaw) * local[1],
                          y + np.sin(yaw) * local[0] + np.cos(yaw) * local[1], local[2]])
        return world, LEVEL

    def stand_before(self, point: np.ndarray, side: str) -> Iterator[None]:
        """Walk so that ``point`` is STANCE_REACH ahead and STANCE_ASIDE toward ``side``
        (no closer to the table than STANCE_LIMIT)."""
        x = min(point[0] - STANCE_REACH, STANCE_LIMIT)
        yield from self.walk_to(x, point[1] - side_sign(side) * STANCE_ASIDE, 0.0,
                                tolerance=STANCE_TOLERANCE, min_speed=STANCE_MIN_SPEED)

    def solve_near(self, side: str, pos: np.ndarray, rot: np.ndarray,
                   seed: np.ndarray) -> tuple[np.ndarray, float]:
        """Arm angles for the pose (the hand's offset added), solved from ``seed`` and
        perturbations of it: the first exact solution, else the one with the smallest
        error; and that error."""
        rng = np.random.default_rng(0)
        best, best_error = seed, np.inf
        for k in range(IK_STARTS):
            start = seed + (rng.normal(0.0, IK_SPREAD, 7) if k else 0.0)
            q, error = self.kin.solve(side, pos + self.offset[side], rot, start, iterations=150)
            if error < best_error:
                best, best_error = q, error
            if error < REACHABLE:
                break
        return best, best_error


class FlipCup(TableTopExpert):
    """Grip the upside-down cup across, lift it, roll the hand half a turn about its
    pointing axis and set the cup down on its bottom.

    Both hands rise first (a hanging hand meets the table's edge and stops the walk at
    pelvis x 0.17-0.19; with both raised the thighs stop it at about 0.23). The robot
    stands FLIP_STANCE behind the cup, toward the working hand (the one on the cup's
    side). The level, fully open jaw (7.6 cm) slides onto the cup (7.0 cm) from behind,
    GRIP_ABOVE over its centre, its offset servoing the pinch site's sideways and
    vertical error; it closes, lifts the cup and rolls half a turn (one joint-space
    move between two inverse-kinematics solutions whose wrist rolls lie near opposite
    limits), draws the cup nearer, lowers it until its bottom is PLACE_DROP above the
    table, opens and withdraws backward."""

    def script(self) -> Iterator[None]:
        cup = self.kin.body_pos("cup")
        side = "left" if cup[1] >= 0 else "right"
        yield from self.ready("left", "right")
        self.raised = {s: self.arm[s].copy() for s in ("left", "right")}
        yield from self.stand_for_flip(cup, side)
        yield from self.take(side)
        yield from self.turn_over(side)
        yield from self.put_down(side)

    def stand_for_flip(self, cup: np.ndarray, side: str) -> Iterator[None]:
        """Walk until the cup is FLIP_STANCE ahead of the pelvis (no closer to the table
        than FLIP_STANCE_LIMIT) and within FLIP_ASIDE toward the working hand (nearer the
        middle, the shoulder's inward-roll limit keeps a level hand from reaching it),
        at most STANCE_WALKS walks."""
        stance_x = min(cup[0] - FLIP_STANCE, FLIP_STANCE_LIMIT)
        for _ in range(STANCE_WALKS):
            x, y, yaw = self.kin.pelvis_pose()
            aside = side_sign(side) * (-np.sin(yaw) * (cup[0] - x) + np.cos(yaw) * (cup[1] - y))
            if FLIP_ASIDE[0] <= aside <= FLIP_ASIDE[1] and abs(yaw) < STANCE_TOLERANCE[1] \
                    and abs(x - stance_x) < STANCE_TOLERANCE[0]:
                return
            yield from self.walk_to(stance_x, cup[1] - side_sign(side) * np.mean(FLIP_ASIDE), 0.0,
                                    tolerance=STANCE_TOLERANCE, min_speed=STANCE_MIN_SPEED)

    def take(self, side: str) -> Iterator[None]:
        """Slide the level, open jaw onto the cup from behind and close it."""
        yield from self.grip(side, 0.0, 10)
        grasp = self.grasp_point()
        start = grasp + APPROACH
        rot, q, self.lifted, self.turned = self.plan_turn(side, start, grasp)
        yield from self.joints({side: q}, REACH_STEPS)
        self.hand[side] = (start, rot)
        yield from self.wait(SETTLE_ARM)
        yield from self.servo_in(side, rot)
        yield from self.grip(side, 1.0, 15)
        yield from self.wait(5)

    def grasp_point(self) -> np.ndarray:
        """Where the pinch site grips the upside-down cup (GRIP_ABOVE its centre,
        GRIP_BEHIND it)."""
        return self.kin.body_pos("cup") + GRIP_ABOVE * UP - GRIP_BEHIND * np.array([1.0, 0, 0])

    def plan_turn(self, side: str, start: np.ndarray,
                  grasp: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The level grip (jaw either way up), wrist roll (near either limit) and point
        to turn the cup at (LIFT above the grasp, or moved by one of TURN_SHIFTS) whose
        half-turned pose the arm reaches best, the first shift reached exactly winning:
        returns the grip rotation, the arm's angles at ``start``, the turning point and
        the arm's angles for the turned cup there."""
        best, best_error = None, np.inf
        for shift in TURN_SHIFTS:
            lifted = grasp + LIFT * UP + np.array(shift)
            for rot in (LEVEL, LEVEL @ rot_x(np.pi)):
                for sign in (1.0, -1.0):
                    seed = self.arm[side].copy()
                    seed[WRIST_ROLL] = sign * ROLL_START
                    q_start, e_start = self.solve_near(side, start, rot, seed)
                    q_lift, e_lift = self.solve_near(side, lifted, rot, q_start)
                    seed = q_lift.copy()
                    seed[WRIST_ROLL] -= sign * np.pi
                    q_turn, e_turn = self.solve_near(side, lifted, rot @ rot_x(np.pi), seed)
                    error = e_start + e_lift + e_turn
                    if error < best_error:
                        best, best_error = (rot, q_start, lifted, q_turn), error
            if best_error < 3 * REACHABLE:
                break
        assert best is not None  # TURN_SHIFTS is not empty and every error is finite
        return best

    def servo_in(self, side: str, rot: np.ndarray) -> Iterator[None]:
        """Slide the hand from APPROACH onto the grasp point over SERVO_STEPS, the
        offset correcting the pinch site's sideways and vertical error as it goes."""
        for k in range(1, SERVO_STEPS + 1):
            target = self.grasp_point() + APPROACH * (1.0 - min_jerk(k / SERVO_STEPS))
            self.hand[side] = (target, rot)
            error = target - self.kin.pinch_pose(side)[0]
            self.offset[side] = self.offset[side] + SERVO_GAIN * error * np.array([0.0, 1.0, 1.0])
            yield
        yield from self.wait(10)

    def turn_over(self, side: str) -> Iterator[None]:
        """Lift the cup and roll the hand half a turn about its pointing axis (a
        joint-space move to the planned angles)."""
        pos, rot = self.hand[side]
        yield from self.move({side: (pos + LIFT * UP, rot)}, 30)
        yield from self.move({side: (self.lifted, rot)}, 20)
        offset = self.offset[side].copy()
        yield from self.joints({side: self.turned}, FLIP_STEPS)
        self.offset[side] = offset

    def put_down(self, side: str) -> Iterator[None]:
        """Lower the upright cup until its bottom is PLACE_DROP above the table (or as
        low as the arm gets), open the jaw, draw the hand back, then return the arm to
        its raised angles. The turned arm is near its wrist limits, where Cartesian
        tracking jumps between solutions, so each move is a joint-space one to the
        solution nearest the arm's angles."""
        pos, rot = self.kin.pinch_pose(side)
        level = rotation(rot[:, 0] * np.array([1.0, 1.0, 0.0]), rot[:, 2])
        place = pos.copy()
        place[2] = TABLE_TOP + CUP_HEIGHT / 2 + PLACE_DROP - GRIP_ABOVE
        yield from self.joints({side: self.solve_local(side, place, level)}, PLACE_STEPS)
        yield from self.wait(10)
        yield from self.grip(side, 0.0, 10)
        yield from self.wait(10)
        yield from self.withdraw(side, level)
        yield from self.joints({side: self.raised[side]}, 40)

    def withdraw(self, side: str, level: np.ndarray) -> Iterator[None]:
        """Draw the open jaw back off the standing cup in WITHDRAW_LEGS joint-space legs,
        each aimed from where the pinch site is, shifted across the jaw onto the cup's
        centre: the open jaw clears the cup by 3 mm a side, and the swaying body
        otherwise sweeps a pad into the cup and tips it over."""
        across = level[:, 1]
        for _ in range(WITHDRAW_LEGS):
            pinch = self.kin.pinch_pose(side)[0]
            centring = ((self.kin.body_pos("cup") - pinch) @ across) * across
            target = pinch - WITHDRAW / WITHDRAW_LEGS * level[:, 0] + centring
            yield from self.joints({side: self.solve_local(side, target, level)},
                                   WITHDRAW_LEG_STEPS)

    def solve_local(self, side: str, pos: np.ndarray, rot: np.ndarray) -> np.ndarray:
        """Arm angles for the pose (the hand's offset added) by inverse kinematics from
        the arm's angles alone: the nearest, or the best the arm gets there."""
        return self.kin.solve(side, pos + self.offset[side], rot, self.arm[side],
                              iterations=150)[0]


EXPERTS: dict[str, type[Expert]] = {"flip_cup": FlipCup}
PENDING: dict[str, str] = {}
