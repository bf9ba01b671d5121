"""The expert for sandwich_remove (bench.tasks.kitchen.SandwichRemove): the right hand
takes the spatula, scoops the sandwich out of the frying pan with the blade and rolls it
off onto the chopping board; the left hand holds the pan. It succeeds on 90 of the 100
official seeds on the embedded default (docs/experts.md "sandwich_remove" gives the
details): of the 10 failures, the right hand fails to take the spatula on 3, two scoops
fail to load the sandwich on 5 (it is pushed against the far wall before the blade gets
under), and 2 sandwiches are lifted and lost on the way to the board.

The spatula is moved by its own pose: a target for the blade (tip, heading, pitch) is
turned into a pinch-site target through the hand-to-spatula transform read from the
world state once the jaw has closed, so a grasp that is a little off is taken into
account.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from bench.policies.experts.kinematics import rot_x, rot_z
from bench.policies.experts.kitchen import KitchenExpert
from bench.policies.experts.script import (
    JOINT_STEP,
    KEYFRAME_ARMS,
    TRACK_LIMIT,
    TRACK_WINDOW,
    Expert,
    Pose,
    min_jerk,
)
from bench.tasks import kitchen_scene as ks

STANCE = (0.55, 0.05)  # m, pelvis x, y facing +x: the right hand reaches the spatula's
# handle, the pan (with the blade) and the board from here
RAISED = (0.25, -0.20, 1.0)  # m, the right hand ahead of, right of the pelvis and up
# before the walk in (raised at the counter, it catches under the top and shoves the
# robot back)
RAISE_STEPS = 60  # control steps for it
LEFT_RAISED = (0.15, 0.22, 1.0)  # m, the left hand ahead of, left of the pelvis and up
# before it reaches for the pan (swung there from hanging, it hit the cabinet door below
# the counter's front and shoved the robot back, seed 620034)
GRIP_AT = -0.155  # m, the pinch site on the handle's axis at this spatula-local x (the
# handle spans -0.19 to -0.01; further forward the hand meets the pan's rim)
GRIP_ABOVE = 0.008  # m, the pinch site this far above the handle's axis: the pads still
# span it, and the fingers and the housing stay clear of the counter
GRIP_PITCH = np.radians(5)  # the hand points this far down along the handle for the grip
HOVER = 0.06  # m, the hand comes down onto the handle from this far above it
TAKE_TRIES = 3  # downs onto the handle at most
TAKE_ROUNDS = 2  # rounds of TAKE_TRIES at most, the robot walking back to the take stance
# (recomputed from where the handle now lies) between them
TAKE_REACH = 0.44  # m, the pelvis stands at most this far behind the handle's grasp point
# for the take (from STANCE, a grasp point 0.50 m ahead was out of reach, seed 620001)
CLEAR = 0.10  # m, the hand moves over the handle this high between the grips
IN_JAW = 0.012  # m, the closed pinch site this near the handle's axis holds it
OVERHANG_AT = -0.08  # m, the spatula is set down with this spatula-local x (on the handle)
OVERHANG = 0.01  # m, this far behind the counter's front edge: the handle's rear 0.12 m
# overhangs the edge, the centre of mass (local x -0.04) stays over the counter
RELEASE_BACK = 0.12  # m, the opened side grip draws back this far along the handle, and
# the upright jaw comes onto the overhanging handle from this far behind its grasp point
HANDLE_RADIUS = 0.011  # m, the spatula handle's radius: its axis's height above the
# spatula's origin (ks.add_spatula)
REGRIP_AT = -0.16  # m, the upright jaw takes the overhanging handle at this local x
JAW_ROLL = np.radians(-90)  # the hand's roll about the handle for the upright jaw
ALIGNED = 0.004  # m, pinch-site error counted as arrived at a grasp point
ALIGN_STEPS = 60  # control steps at most for it
PAN_GRIP = np.array([-0.27, 0.0, 0.032])  # pan-local pinch point on its handle's axis,
# 3 cm from the handle's end (ks.add_frying_pan: the handle spans x -0.12 to -0.30)
TIP = np.array([ks.SPATULA_BLADE[0], 0.0, ks.SPATULA_BLADE[2]])  # spatula-local blade tip
# (its bevelled edge, on the top face: ks.add_spatula)
HEADING = np.radians(40)  # the blade enters the pan pointing this far left of +x (the
# hand then stays clear of the pan's handle, which leaves the rim along -x)
ENTRY = 0.085  # m, the tip comes down this far before the sandwich's centre
WALL_GAP = 0.030  # m, and slides under it to this far before the far wall's inner face (a
# blade path replayed without the robot, with errors of the robot's size, loaded 31 of 48
# sandwiches at 30 mm and 18 at 12 mm: a tip that overshoots runs into the wall)
ENTRY_PITCH = np.radians(35)  # blade pitch (nose down) as the tip comes down
PAST = 0.04  # m, the push goes on until the tip is this far beyond the sandwich's centre
PUSHED = 0.015  # m, the tip this close to the push's goal (horizontally) counts as there
PRESS = 0.005  # m, the hand is sent this much lower than the tip on the pan's floor
RIM_CLEAR = 0.006  # m, the blade's top face passes this far above the near rim while it
# slides in (its bottom face about 2 mm; with the blade's thickness added, 620000-620023 made 4
# of 24 instead of 8)
LIFT = 0.05  # m, the blade comes down into the pan from this far above the entry point
SCOOP_TRIES = 2  # scoops at most: one that left the sandwich in the pan is followed by
# another from where the sandwich now lies (pushed toward the far wall, its near edge is
# further from the near rim, and the blade meets it flatter)
LOADED = 0.01  # m, a sandwich whose centre is this far above its rest on the pan's floor
# after the scoop's rise is (at least partly) on the blade: left in the pan it reads 0.000;
# 620062's, leaning on the blade at 0.0245, was carried to the board, and scooped again
# (at 0.025) it was lost
RAISE = 0.10  # m, the loaded blade rises this far (the sandwich then clears the rim on
# the way to the board)
CARRY_PITCH = np.radians(-4)  # the blade's tip is kept this far up while it travels (the
# sandwich, shaken, slid off over the tip)
RIM_CLEARANCE = 0.03  # m, the loaded blade is levelled with its tip this far above the
# pan's rim before it travels (carried along at rim height, blade and handle dragged on
# the wall and the spatula turned in the jaw, seed 620006)
CARRY_CLEAR = 0.05  # m, the blade travels to the board this much higher than it tips off
BOARD_DROP = 0.025  # m, the sandwich's bottom this far above the board when tipped off
BOARD_SPOT = (-0.03, 0.0)  # m, the sandwich is brought over this point (x, y from the
# board's centre) and slides off the blade's left edge toward the board's centre
ON_SPOT = 0.015  # m, a sandwich this near BOARD_SPOT is tipped off without a correction
ON_EDGE = np.radians(45)  # a sandwich tilted more than this after the roll stands on its edge
PUSH_OVER = 0.03  # m, the rolled blade pushes that sandwich's top this far past its centre
DRAW_BACK = 0.08  # m, the rolled blade draws back this far to its right before it rises
# (the sandwich slid off, its edge still leaning on the blade, seeds 620000 and 620002)
TIP_ROLL = np.radians(-75)  # the blade rolls this far (its left edge down) to tip it off;
# rolled the other way at CARRY_HEADING, the arm's angles were out of reach from the carry's
CARRY_HEADING = np.radians(-20)  # the blade's heading over the board: the arm reaches the
# blade over the board at -40 to -10 degrees, and turned on the way from HEADING, through
# the headings it reaches between (0 to 10 degrees halfway, seed 620000)
IK_ERROR = 0.01  # the arm's pose error (m, and 0.3 m per rad) beyond which a blade pose on
# the way counts as out of reach (turning the blade from heading -12 to 40 degrees,
# headings near 0 are: the solutions jumped 2.8 rad, seed 620010)
SWING = 0.01  # rad per control step, the right arm's mean speed on the way to the scoop's
# branch (scoop_arm)
REPLAN = 20  # control steps between the arm's re-planned blade poses (blade_joints)
SAG_GAIN = 0.05  # share of the right arm's joint error (commanded less measured) added to
# its joint bias per step while the blade moves freely
SAG_LIMIT = 0.2  # rad, largest joint bias
TIP_GAIN = 0.05  # share of the blade tip's error added to the hand's offset per step
PITCH_GAIN = 0.05  # share of the blade's pitch error added to its pitch correction per step
PITCH_LIMIT = np.radians(10)  # largest pitch correction
TURN_GAIN = 0.05  # share of the blade's heading error added to its heading correction per step
TURN_LIMIT = np.radians(15)  # largest heading correction
CONTROL_STEPS = {"hover": 80, "down": 40, "lift": 40, "entry": 80, "settle": 50,
                 "scoop": 160, "push": 160, "raise": 80, "carry": 300, "tip": 60,
                 "drag": 200}
# "tip": the roll over the board. In 30 control steps its rising edge flung 620065's
# sandwich 0.23 m across the board onto the counter and stood 620001's on its edge.


def up(height: float) -> np.ndarray:
    """The world vector ``height`` straight up."""
    return np.array([0.0, 0.0, height])


def wrapped(angle: float) -> float:
    """``angle`` (rad) wrapped into [-pi, pi]: the shortest turn."""
    return float(np.arctan2(np.sin(angle), np.cos(angle)))


def spatula_rotation(heading: float, pitch: float) -> np.ndarray:
    """The spatula's orientation pointing along ``heading`` (rad, from +x) with its blade
    pitched ``pitch`` nose down."""
    cos, sin = np.cos(pitch), np.sin(pitch)
    return rot_z(heading) @ np.array([[cos, 0.0, sin], [0.0, 1.0, 0.0], [-sin, 0.0, cos]])


class SandwichRemove(KitchenExpert):
    """Scoop the sandwich out of the pan with the spatula and roll it onto the board.

    The right hand is raised before the robot walks to STANCE, or nearer where the
    handle lies far out (TAKE_REACH; a hand raised at the counter catches under its
    top). It comes down onto the spatula's handle (level but for GRIP_PITCH, the jaw
    horizontal round it: the handle lies on the counter), checks that it holds it (up
    to TAKE_TRIES downs, in up to TAKE_ROUNDS rounds from a fresh take stance), and
    drags the spatula along the counter until the handle's rear overhangs the front
    edge; it lets go and takes the overhanging handle again with the jaw upright (a side
    grip holds the blade's pitch by friction only, and the blade turned in the jaw as
    soon as it pushed). The robot walks back to STANCE between these steps where it
    has drifted (``settle``). The left hand grips the pan's handle. The blade rises,
    turns to HEADING on the arm's branch that reaches the whole scoop (``scoop_arm``)
    and comes down steeply (ENTRY_PITCH) above the gap before the sandwich, the right
    arm moving in joint space with its sag taken out (``blade_joints``, ``unsag``); it
    then slides along the pan's floor to WALL_GAP before the far wall, its pitch falling
    so that it keeps RIM_CLEAR above the near rim, while the hand's offset servos the
    tip's height onto the floor and a pitch correction the blade's pitch; the sandwich
    rides up onto the blade. The hand rises RAISE (in joint space); a sandwich left in
    the pan (not LOADED) is scooped again from where it now lies (SCOOP_TRIES). The blade is
    levelled with its tip RIM_CLEARANCE above the rim and the point under the sandwich
    kept in plan, the left hand lets go of the pan, the blade is levelled again and
    carried, turning to CARRY_HEADING, over BOARD_SPOT; it comes down to BOARD_DROP,
    rolls TIP_ROLL (left edge down) until the sandwich slides off, and draws back
    DRAW_BACK before it rises; a sandwich left standing on its edge (ON_EDGE) is pushed
    over with the rolled blade.
    """

    def reset(self) -> None:
        super().reset()
        self.unsag = False  # the right arm's joint bias learns (the blade's free moves)
        self.bias = np.zeros(7)  # rad, added to the right arm's commanded angles
        self.tilt = 0.0  # rad, added to the blade's commanded pitch (``blade_path``)
        self.turn = 0.0  # rad, added to the blade's commanded heading (``blade_path``)

    def _track(self) -> None:
        """Expert tracking; with ``unsag``, the right arm's joint bias also integrates the
        error between its commanded and measured angles. The shoulder and wrist sag
        0.07-0.08 rad under the loaded blade 0.5 m out, which tilted the blade 10-15
        degrees nose down (a hand offset corrects the position only)."""
        super()._track()
        if self.unsag:
            error = self.arm["right"] - self.kin.arm_q("right")
            self.bias = np.clip(self.bias + SAG_GAIN * error, -SAG_LIMIT, SAG_LIMIT)

    def action(self) -> np.ndarray:
        """The expert's action with the right arm's joint bias added."""
        commanded = self.arm["right"]
        self.arm["right"] = commanded + self.bias
        try:
            return super().action()
        finally:
            self.arm["right"] = commanded

    def script(self) -> Iterator[None]:
        yield from self.hand_ahead("right", RAISED)
        stance = np.array([*STANCE, 0.0])
        take = self.take_stance()
        yield from self.walk_to(*take)
        for _ in range(TAKE_ROUNDS):
            yield from self.settle(take)
            yield from self.take_spatula()
            if self.handle_in_jaw():
                break
            take = self.take_stance()  # where the handle now lies
        yield from self.drag_to_edge()
        yield from self.settle(stance)
        yield from self.regrasp()
        yield from self.settle(stance)
        yield from self.hold_pan()
        yield from self.scoop_from_above()
        for _ in range(SCOOP_TRIES - 1):
            if self.loaded() or not self.sandwich_in_pan():
                break
            yield from self.scoop_from_above()
        yield from self.blade_joints(self.level_tip(CARRY_PITCH), self.blade_heading(),
                                     CARRY_PITCH, 0.0, CONTROL_STEPS["raise"])
        yield from self.release_pan()
        # once more: letting go of the pan shifts the body and tilts the blade (620001)
        yield from self.blade_joints(self.level_tip(CARRY_PITCH), self.blade_heading(),
                                     CARRY_PITCH, 0.0, CONTROL_STEPS["settle"])
        yield from self.to_board()

    def scoop_from_above(self) -> Iterator[None]:
        """Raise the blade 2 LIFT above the pan's floor where it is, swing the arm to the
        branch that reaches the whole scoop (``scoop_arm``) and scoop (``scoop``)."""
        start, end, ahead = self.scoop_line()
        # up first, then over: straight from the regrasp, the blade met the pan's wall
        # and the hob, and the spatula turned in the jaw (seed 620006); in joint space,
        # the arm's sag taken out (tracked in Cartesian space, the blade flailed and the
        # spatula rolled 58 degrees in the jaw, seed 620010)
        tip = self.blade_tip()
        self.unsag = True
        yield from self.blade_joints(np.array([tip[0], tip[1], start[2] + 2 * LIFT]),
                                     self.blade_heading(), 0.0, 0.0, CONTROL_STEPS["down"])
        grip = self.grip_transform()
        arm = self.scoop_arm(grip, self.scoop_ways(start, end, ahead))
        # slowly where it changes branch: swung over in 80 control steps, the spatula
        # turned 100 degrees in the jaw (620003)
        travel = float(np.abs(arm - self.arm["right"]).max())
        yield from self.joints({"right": arm}, max(CONTROL_STEPS["entry"], int(travel / SWING)))
        yield from self.scoop(start, end, ahead)

    def scoop_line(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The scoop's start (ENTRY before the sandwich's centre) and end (WALL_GAP before
        the far wall) on the pan's floor, and its direction, at HEADING."""
        centre = self.kin.body_pos("sandwich")
        floor = self.pan_floor()
        ahead = np.array([np.cos(HEADING), np.sin(HEADING), 0.0])
        start = np.array([*(centre - ENTRY * ahead)[:2], floor])
        end = np.array([*self.far_wall(centre, ahead)[:2], floor])
        return start, end, ahead

    def scoop(self, start: np.ndarray, end: np.ndarray, ahead: np.ndarray) -> Iterator[None]:
        """From above the scoop's start, on the arm's scoop branch: the blade comes down
        steeply (ENTRY_PITCH) to ``start``, slides along the floor to ``end`` under the
        sandwich, pushes on PAST it, and rises RAISE with the hand as it is."""
        floor = start[2]
        above = start + up(LIFT)
        self.unsag = True
        yield from self.blade_joints(above, HEADING, ENTRY_PITCH, 0.0, CONTROL_STEPS["down"])
        self.unsag = False  # the bias holds while the blade presses on the pan's floor
        grip = self.grip_transform()
        yield from self.blade_to(grip, above, HEADING, ENTRY_PITCH, CONTROL_STEPS["settle"],
                                 servo=True)
        grip = self.grip_transform()  # the spatula may have turned in the jaw
        yield from self.blade_to(grip, start, HEADING, ENTRY_PITCH, CONTROL_STEPS["down"])
        yield from self.blade_to(grip, start, HEADING, ENTRY_PITCH, CONTROL_STEPS["settle"],
                                 servo=True, press=PRESS)

        def along(s: float) -> tuple[np.ndarray, float, float]:
            tip = start + (end - start) * s
            return tip, HEADING, self.rim_pitch(tip, ahead)

        def still(tip: np.ndarray) -> Callable[[float], tuple[np.ndarray, float, float]]:
            return lambda _: (tip, HEADING, self.rim_pitch(tip, ahead))

        yield from self.blade_path(grip, along, CONTROL_STEPS["scoop"], servo=True, press=PRESS)
        # on toward PAST beyond where the sandwich now is (or the wall's gap), until the
        # tip is there: aimed at the scoop's end, the blade stopped where the sandwich,
        # pushed along, still sat half off it (620013)
        for _ in range(CONTROL_STEPS["push"]):
            now = self.kin.body_pos("sandwich")
            wall = self.far_wall(now, ahead)
            goal = wall if (wall - now) @ ahead < PAST else now + PAST * ahead
            goal = np.array([goal[0], goal[1], floor])
            if np.linalg.norm(self.blade_tip()[:2] - goal[:2]) < PUSHED:
                break
            yield from self.blade_path(grip, still(goal), 1, servo=True, press=PRESS)
        # straight up with the hand as it is: re-aimed from the grip, the blade pitched
        # about its tip on the floor instead of rising. In joint space: tracked from the
        # commanded pose, the arm swung 0.4 m back and right where the spatula had turned
        # in the jaw and the wrist was at its limits (620003)
        pos, rot = self.kin.pinch_pose("right")
        self.unsag = True
        arm = self.kin.solve("right", pos + up(RAISE), rot, self.arm["right"], iterations=200)[0]
        yield from self.joints({"right": arm}, CONTROL_STEPS["raise"])
        yield from self.wait(CONTROL_STEPS["settle"])

    def rim_pitch(self, tip: np.ndarray, ahead: np.ndarray) -> float:
        """The blade's pitch (nose down) with its tip at ``tip`` on the pan's floor that
        keeps it RIM_CLEAR above the near rim (the blade pointing along ``ahead``), at
        most ENTRY_PITCH."""
        pan = self.kin.body_pos("pan")
        rim = pan[:2] - ks.PAN_RADIUS * ahead[:2]
        rise = ks.PAN_HEIGHT - (self.pan_floor() - pan[2]) + RIM_CLEAR
        return min(ENTRY_PITCH, float(np.arctan2(rise, np.linalg.norm(tip[:2] - rim))))

    def scoop_ways(self, start: np.ndarray, end: np.ndarray,
                   ahead: np.ndarray) -> list[tuple[np.ndarray, float]]:
        """The blade poses (tip, pitch nose down) of the entry, from 2 LIFT above the
        scoop's ``start`` down to it, and of the scoop on to ``end``, at HEADING."""
        ways = [(start + up(2 * LIFT), 0.0), (start + up(LIFT), ENTRY_PITCH), (start, ENTRY_PITCH)]
        return ways + [(start + (end - start) * s, self.rim_pitch(start + (end - start) * s, ahead))
                       for s in np.linspace(0.25, 1.0, 4)]

    def scoop_arm(self, grip: tuple[np.ndarray, np.ndarray],
                  ways: list[tuple[np.ndarray, float]]) -> np.ndarray:
        """The right arm's angles for the first of the blade poses ``ways`` (tip, pitch
        nose down, at HEADING) on the inverse-kinematics branch that reaches them all,
        each solved on from the one before as the arm tracks. Solved from the arm as it
        is, the branch can end short: on seed 620001 the arm came to the entry with the
        shoulder turned back and rolled to its limit, and the blade reached 4 cm of the
        scoop's 18 and slid off sideways; from the hanging arm's angles it reached them
        all. Of the branches from the two starts, the one with the smaller worst error,
        nearer the arm as it is where both reach."""
        best: tuple[float, float, np.ndarray] | None = None
        for start in (self.arm["right"], KEYFRAME_ARMS["right"]):
            q, first, worst = start, None, 0.0
            for tip, pitch in ways:
                target = self.blade(grip, tip, HEADING, pitch)["right"]
                for _ in range(3):  # on from the pose before, as the arm tracks
                    q, error = self.kin.solve("right", *target, q, iterations=200)
                first = q if first is None else first
                worst = max(worst, error)
            assert first is not None
            rank = (max(worst, IK_ERROR), float(np.abs(first - self.arm["right"]).sum()), first)
            best = rank if best is None or rank[:2] < best[:2] else best
        assert best is not None
        return best[2]

    def level_tip(self, pitch: float) -> np.ndarray:
        """The tip position that turns the blade to ``pitch`` (its heading kept) with the
        blade point under the sandwich's centre where it is in plan and the tip
        RIM_CLEARANCE above the pan's rim (turned about its tip instead, the loaded blade
        dropped the sandwich back into the pan; turned about the sandwich, its handle
        came down onto the rim)."""
        body, rot = self.kin.body_pos("spatula"), self.kin.body_rot("spatula")
        under = rot.T @ (self.kin.body_pos("sandwich") - body)
        under[2] = 0.0
        level = spatula_rotation(self.blade_heading(), pitch)
        tip = body + rot @ under + level @ (TIP - under)
        tip[2] = self.kin.body_pos("pan")[2] + ks.PAN_HEIGHT + RIM_CLEARANCE
        return tip

    def blade_path(self, grip: tuple[np.ndarray, np.ndarray],
                   path: Callable[[float], tuple[np.ndarray, float, float]],
                   steps: int, servo: bool = False, press: float = 0.0) -> Iterator[None]:
        """Move the blade along ``path(s)`` (tip, heading, pitch for s from 0 to 1, minimum
        jerk in time) in ``steps`` control steps. With ``servo`` the hand's offset servos
        the tip: the world state's tip error, not the hand's, is what the offset learns
        (an error of the hand's orientation moves the tip, 0.25 m ahead, by centimetres);
        only for slow or no motion, a moving arm's lag would make it oscillate. ``press``
        (m): the hand is sent this much lower than the tip's path (the servo still aims
        at the path), which keeps a tip on a floor pressed on it; the servo then corrects
        the tip's height only (what blocks the tip sideways must not make the hand push
        ever harder). The hand's offset does not learn its sag meanwhile (Expert). The
        servo also corrects the blade's pitch (``tilt``, PITCH_GAIN of the world state's
        pitch error a step): the wrist's sag ran the blade 3.5-5.5 degrees steeper than
        planned through the scoop (620000), and the wedge lifts only under 23 degrees. And
        it corrects the blade's heading (``turn``, TURN_GAIN of the heading error a step):
        where the blade met the sandwich pushed against the far wall, the hand pushing on
        turned the spatula up to 48 degrees in the jaw (620016) while the blade pivoted
        on the near rim, off its line."""
        self.learning = False
        axes = np.array([0.0, 0.0, 1.0]) if press else np.ones(3)
        for k in range(1, steps + 1):
            tip, heading, pitch = path(min_jerk(k / steps))
            self.hand.update(self.blade(grip, tip - up(press), heading + self.turn,
                                        pitch + self.tilt))
            error = (tip - self.blade_tip()) * axes
            if servo and np.linalg.norm(error) < TRACK_WINDOW:
                self.shift_offset("right", TIP_GAIN * error, TRACK_LIMIT)
                self.tilt = float(np.clip(self.tilt + PITCH_GAIN * (pitch - self.blade_pitch()),
                                          -PITCH_LIMIT, PITCH_LIMIT))
                turn = wrapped(heading - self.blade_heading())
                self.turn = float(np.clip(self.turn + TURN_GAIN * turn, -TURN_LIMIT, TURN_LIMIT))
            yield

    def blade_to(self, grip: tuple[np.ndarray, np.ndarray], tip: np.ndarray, heading: float,
                 pitch: float, steps: int, servo: bool = False,
                 press: float = 0.0) -> Iterator[None]:
        """``blade_path`` on the shortest way from the blade's current pose to ``tip``,
        ``heading`` and ``pitch`` (nose down)."""
        start = self.blade_tip()
        heading0, pitch0 = self.blade_heading(), self.blade_pitch()
        turn = wrapped(heading - heading0)
        yield from self.blade_path(
            grip, lambda s: (start + (tip - start) * s, heading0 + turn * s,
                             pitch0 + (pitch - pitch0) * s), steps, servo, press)

    def take_stance(self) -> np.ndarray:
        """The pelvis pose for the take: STANCE, or nearer where the handle's grasp point
        lies more than TAKE_REACH ahead of it."""
        return np.array([max(STANCE[0], self.handle_grasp()[0][0] - TAKE_REACH), STANCE[1], 0.0])

    def take_spatula(self) -> Iterator[None]:
        """The right hand comes down onto the spatula's handle (its pinch site servoed onto
        the point above the grasp, not on the way down) and closes on it; a jaw that
        closed beside the handle (more than IN_JAW from its axis: a take 3 cm aside on
        seeds 620001 and 620008 dragged nothing) opens, rises and comes down again, up
        to TAKE_TRIES times."""
        for _ in range(TAKE_TRIES):
            pos, rot = self.handle_grasp()
            yield from self.move({"right": (pos + up(HOVER), rot)}, CONTROL_STEPS["hover"])
            yield from self.align(pos + up(HOVER))
            yield from self.move({"right": (pos, rot)}, CONTROL_STEPS["down"])
            yield from self.wait(15)
            yield from self.grip("right", 1.0)
            yield from self.wait(10)
            if self.handle_in_jaw():
                return
            yield from self.grip("right", 0.0)
            pinch, hand = self.kin.pinch_pose("right")
            yield from self.move({"right": (pinch + up(HOVER), hand)}, CONTROL_STEPS["down"])

    def handle_in_jaw(self) -> bool:
        """Whether the right pinch site lies within IN_JAW of the spatula handle's axis."""
        axis = self.kin.body_rot("spatula")[:, 0]
        offset = self.kin.pinch_pose("right")[0] - self.geom_pos("spatula_handle")
        return bool(np.linalg.norm(offset - (offset @ axis) * axis) < IN_JAW)

    def drag_to_edge(self) -> Iterator[None]:
        """Slide the gripped spatula along its axis, toward the robot and on the counter,
        until spatula-local x OVERHANG_AT lies OVERHANG behind the counter's front edge
        (its handle's rear then overhangs the edge), then open the jaw and lift the hand
        HOVER. Lifted on a side grip instead and set down there, the spatula slipped out
        of the jaw or fell to the floor on 3 of 10 seeds (620001, 620005, 620008)."""
        rot = self.kin.body_rot("spatula")
        along = np.array([rot[0, 0], rot[1, 0], 0.0]) / np.linalg.norm(rot[:2, 0])
        body = self.kin.body_pos("spatula")
        shift = (ks.KITCHEN_X + OVERHANG - (body[0] + along[0] * OVERHANG_AT)) / along[0]
        pos, hand = self.kin.pinch_pose("right")
        yield from self.move({"right": (pos + shift * along, hand)}, CONTROL_STEPS["drag"],
                             contact=True)
        yield from self.wait(20)
        yield from self.grip("right", 0.0)
        yield from self.wait(10)
        # back along the handle, off its end, before rising: the jaw rising from the
        # handle lifted the spatula and threw it to the floor (seed 620000). In joint
        # space: tracked in Cartesian space, the hand veered 9 cm right and 5 cm up on
        # the way and turned the spatula 64 degrees on the counter, out of the regrasp's
        # reach (620058)
        pos, hand = self.kin.pinch_pose("right")
        back = pos - RELEASE_BACK * hand[:, 0]
        arm = self.kin.solve("right", back, hand, self.arm["right"], iterations=200)[0]
        yield from self.joints({"right": arm}, CONTROL_STEPS["down"])
        yield from self.move({"right": (back + up(CLEAR), hand)}, CONTROL_STEPS["down"])

    def regrasp(self) -> Iterator[None]:
        """Take the overhanging handle with the jaw upright (a finger under it): a side
        grip holds the spatula's pitch by friction only, and the blade's push on the
        sandwich turns it in the jaw. The hand comes in joint space (tracked from the
        side grip, the rolled hand ended with the shoulder turned back and 3 cm off the
        handle) to CLEAR above the approach point, RELEASE_BACK behind the grasp point
        along the handle (coming straight to it, the hand swept the handle's end 6 cm
        aside, seed 620009), down to it and along the handle onto the grasp point; a
        jaw that closed off the handle opens, draws back and comes again (TAKE_TRIES)."""
        for _ in range(TAKE_TRIES):
            grasp, upright = self.upright_grasp()
            behind = grasp - RELEASE_BACK * upright[:, 0]
            arm = self.kin.solve("right", behind + up(CLEAR), upright, KEYFRAME_ARMS["right"],
                                 iterations=300)[0]
            yield from self.joints({"right": arm}, CONTROL_STEPS["hover"])
            yield from self.move({"right": (behind + up(CLEAR), upright)}, 10)
            yield from self.move({"right": (behind, upright)}, CONTROL_STEPS["down"])
            grasp, upright = self.upright_grasp()
            behind = grasp - RELEASE_BACK * upright[:, 0]
            yield from self.align(behind)
            yield from self.move({"right": (grasp, upright)}, CONTROL_STEPS["down"])
            yield from self.align(grasp)
            yield from self.grip("right", 1.0)
            yield from self.wait(10)
            if self.handle_in_jaw():
                break
            yield from self.grip("right", 0.0)
            yield from self.move({"right": (behind, upright)}, CONTROL_STEPS["down"])
        yield from self.move({"right": (grasp + up(HOVER), upright)}, CONTROL_STEPS["lift"])

    def upright_grasp(self) -> tuple[np.ndarray, np.ndarray]:
        """The upright-jaw pinch pose on the handle at REGRIP_AT (world state)."""
        body, rot = self.kin.body_pos("spatula"), self.kin.body_rot("spatula")
        return body + rot @ [REGRIP_AT, 0.0, HANDLE_RADIUS], rot @ rot_x(JAW_ROLL)

    def hold_pan(self) -> Iterator[None]:
        """The left hand goes up to LEFT_RAISED and grips the pan's handle near its end
        (level, the jaw horizontal round it), so that the blade's push moves the sandwich
        and not the pan."""
        yield from self.hand_ahead("left", LEFT_RAISED)
        rot = self.kin.body_rot("pan")
        heading = float(np.arctan2(rot[1, 0], rot[0, 0]))
        hand = rot_z(heading)
        grasp = self.kin.body_pos("pan") + rot @ PAN_GRIP
        above = grasp + up(HOVER)
        arm = self.kin.solve("left", above, hand, KEYFRAME_ARMS["left"], iterations=300)[0]
        yield from self.joints({"left": arm}, CONTROL_STEPS["hover"])
        self.hand["left"] = (above, hand)
        yield from self.wait(30)
        yield from self.move({"left": (grasp, hand)}, CONTROL_STEPS["down"])
        yield from self.wait(20)
        yield from self.grip("left", 1.0)
        yield from self.wait(10)
        self.hand.pop("left")  # the arm holds its angles

    def hand_ahead(self, side: str, where: tuple[float, float, float]) -> Iterator[None]:
        """Move the ``side`` hand, in joint space over RAISE_STEPS control steps, to the
        point ``where`` (ahead of the pelvis, left of it, height), its orientation free."""
        yield from self.joints({side: self.arm_ahead(side, *where)}, RAISE_STEPS)

    def release_pan(self) -> Iterator[None]:
        """The left hand lets go of the pan's handle and rises HOVER (carrying the blade to
        the board with the pan held turns the robot)."""
        yield from self.grip("left", 0.0)
        pos, rot = self.kin.pinch_pose("left")
        yield from self.move({"left": (pos + up(HOVER), rot)}, CONTROL_STEPS["down"])
        self.hand.pop("left")

    def align(self, target: np.ndarray) -> Iterator[None]:
        """Servo the right pinch site onto ``target`` (within ALIGNED, at most
        ALIGN_STEPS), the offset learning only from that error."""
        self.learning = False
        return self.servo("right", ALIGNED, ALIGN_STEPS, target)

    def handle_grasp(self) -> Pose:
        """The pinch pose on the spatula's handle: GRIP_ABOVE over its axis at GRIP_AT,
        the hand pointing along the spatula, but never turned left of +x (the housing
        behind it would swing toward the board), and GRIP_PITCH down, the jaw horizontal."""
        heading = self.blade_heading()
        axis = self.geom_pos("spatula_handle")
        along = np.array([np.cos(heading), np.sin(heading), 0.0])
        centre_x = -0.10  # spatula-local x of the handle's centre (ks.add_spatula)
        pos = axis + (GRIP_AT - centre_x) * along + up(GRIP_ABOVE)
        return pos, spatula_rotation(min(heading, 0.0), GRIP_PITCH)

    def grip_transform(self) -> tuple[np.ndarray, np.ndarray]:
        """The pinch site's pose in the spatula's frame (position, rotation), from the
        world state."""
        pos, rot = self.kin.pinch_pose("right")
        body, body_rot = self.kin.body_pos("spatula"), self.kin.body_rot("spatula")
        return body_rot.T @ (pos - body), body_rot.T @ rot

    def blade(self, grip: tuple[np.ndarray, np.ndarray], tip: np.ndarray, heading: float,
              pitch: float, roll: float = 0.0) -> dict[str, Pose]:
        """The right pinch pose that puts the blade's tip at ``tip``, pointing along
        ``heading``, pitched ``pitch`` nose down and rolled ``roll`` about its axis."""
        rot = spatula_rotation(heading, pitch) @ rot_x(roll)
        body = tip - rot @ TIP
        return {"right": (body + rot @ grip[0], rot @ grip[1])}

    def pan_floor(self) -> float:
        """Height of the pan floor's upper face."""
        geom = self.kin.model.geom("pan_floor")
        return float(self.kin.data.geom_xpos[geom.id][2] + self.kin.model.geom_size[geom.id][1])

    def to_board(self) -> Iterator[None]:
        """Bring the sandwich, level on the blade, over BOARD_SPOT (a second, level
        correction where it is more than ON_SPOT off), roll the blade about its axis
        until the sandwich slides off onto the board, and draw the blade back from under
        the sandwich's edge, which still leans on it, before it rises."""
        board = self.kin.body_pos("board")
        spot = board + np.array([*BOARD_SPOT, 0.0])
        ahead = np.array([np.cos(CARRY_HEADING), np.sin(CARRY_HEADING), 0.0])
        left = np.array([-ahead[1], ahead[0], 0.0])

        def tip_under_spot() -> np.ndarray:
            along, across = self.sandwich_on_blade()
            tip = spot - along * ahead - across * left
            tip[2] = board[2] + ks.BOARD_HALF[2] + BOARD_DROP
            return tip

        tip = tip_under_spot()
        high = np.array([tip[0], tip[1], max(tip[2] + CARRY_CLEAR, self.blade_tip()[2])])
        yield from self.blade_joints(high, CARRY_HEADING, CARRY_PITCH, 0.0,
                                     CONTROL_STEPS["carry"], rebranch=True)
        yield from self.blade_joints(tip, CARRY_HEADING, 0.0, 0.0, CONTROL_STEPS["down"])
        yield from self.wait(CONTROL_STEPS["settle"])
        if np.linalg.norm((self.kin.body_pos("sandwich") - spot)[:2]) > ON_SPOT:
            tip = tip_under_spot()
            yield from self.blade_joints(tip, CARRY_HEADING, 0.0, 0.0, CONTROL_STEPS["down"])
            yield from self.wait(CONTROL_STEPS["settle"])
        yield from self.blade_joints(tip, CARRY_HEADING, 0.0, TIP_ROLL, CONTROL_STEPS["tip"])
        yield from self.wait(40)
        yield from self.blade_joints(tip - DRAW_BACK * left, CARRY_HEADING, 0.0, TIP_ROLL,
                                     CONTROL_STEPS["down"])
        clear = tip - DRAW_BACK * left + up(HOVER)
        yield from self.blade_joints(clear, CARRY_HEADING, 0.0, TIP_ROLL, CONTROL_STEPS["lift"])
        yield from self.wait(60)
        over_board = np.linalg.norm((self.kin.body_pos("sandwich") - spot)[:2]) < np.hypot(
            *ks.BOARD_HALF[:2])
        if over_board and self.sandwich_tilt() > ON_EDGE:
            # it slid off onto its edge and stands (620013, 620072, 620074): the rolled
            # blade, HOVER above the drop, pushes its upper half over to the left (only
            # over the board: on 620025 the sandwich, lost on the way, stood in the pan)
            across = float((self.kin.body_pos("sandwich") - tip) @ left)
            yield from self.blade_joints(tip + (across + PUSH_OVER) * left + up(HOVER),
                                         CARRY_HEADING, 0.0, TIP_ROLL, CONTROL_STEPS["down"])
            yield from self.blade_joints(clear, CARRY_HEADING, 0.0, TIP_ROLL,
                                         CONTROL_STEPS["down"])
            yield from self.wait(60)

    def blade_joints(self, tip: np.ndarray, heading: float, pitch: float, roll: float,
                     steps: int, rebranch: bool = False) -> Iterator[None]:
        """Move the blade from its pose in the world state to ``tip``, ``heading``,
        ``pitch`` (nose down) and ``roll`` (minimum jerk in time) in joint space: every
        REPLAN control steps the arm angles for the pose REPLAN steps on are solved from
        the grip as it is then (where that pose is out of reach, IK_ERROR, the angles go
        the same share of the way toward the goal's, or stay where the goal is out of
        reach too: seed 620011 flung the sandwich off; with ``rebranch``, a goal out of
        reach from the arm's angles is solved again from the hanging arm's, KEYFRAME_ARMS,
        for the carry: on 620087 its turn from the scoop's heading to CARRY_HEADING,
        solved from the arm's angles, left a pose error of 0.94 and the blade stayed over
        the pan; from the hanging arm's, none. Everywhere, the swing to the other branch
        swept a sandwich already on the board off it, 620015; with ``rebranch`` the
        angles taken toward the goal's are ``kept_above`` the lower of the start's and
        the goal's tip heights: interpolated across the carry's turn, they dipped the
        loaded blade onto the counter, which scraped the sandwich off, 620006), and the
        arm moves to them linearly, each joint at most JOINT_STEP per step. Held in
        Cartesian space, the arm near full reach chased the body's sway (an elbow at 0.3
        rad swung 1.2 rad within 40 steps, seed 620002) and threw the sandwich off;
        planned once, the spatula's slow turn in the jaw (18 degrees over a carry, seed
        620006) went uncorrected."""
        start = self.blade_tip()
        heading0, pitch0, roll0 = self.blade_heading(), self.blade_pitch(), self.blade_roll()
        turn = wrapped(heading - heading0)
        self.hand.pop("right", None)
        self.offset["right"] = np.zeros(3)

        def angles(s: float, seed: np.ndarray) -> tuple[np.ndarray, float]:
            pos, rot = self.blade(self.grip_transform(), start + (tip - start) * s,
                                  heading0 + turn * s, pitch0 + (pitch - pitch0) * s,
                                  roll0 + (roll - roll0) * s)["right"]
            return self.kin.solve("right", pos, rot, seed, iterations=200)

        for first in range(0, steps, REPLAN):
            last = min(first + REPLAN, steps)
            begin = self.arm["right"].copy()
            end, error = angles(min_jerk(last / steps), begin)
            if error > IK_ERROR:  # a pose on the way out of reach: toward the goal's angles
                done, now = min_jerk(first / steps), min_jerk(last / steps)
                goal, error = angles(1.0, begin)
                if rebranch and error > IK_ERROR:  # out of reach on this branch
                    goal, error = angles(1.0, KEYFRAME_ARMS["right"])
                share = (now - done) / max(1.0 - done, 1e-9) if error <= IK_ERROR else 0.0
                end = begin + (goal - begin) * share
                if rebranch:
                    end = self.kept_above(end, min(start[2], tip[2]))
            end = begin + np.clip(end - begin, -JOINT_STEP * (last - first),
                                  JOINT_STEP * (last - first))
            for k in range(first + 1, last + 1):
                self.arm["right"] = begin + (k - first) / (last - first) * (end - begin)
                yield

    def kept_above(self, arm: np.ndarray, floor: float) -> np.ndarray:
        """The right arm's angles ``arm``, raised where they would put the blade's tip
        below ``floor``: the pinch pose there lifted by the shortfall, solved from ``arm``
        (``arm`` itself where that is out of reach)."""
        grip = self.grip_transform()
        pos, rot = self.kin.pinch_at("right", arm)
        short = floor - (pos + rot @ grip[1].T @ (TIP - grip[0]))[2]
        if short <= 0.0:
            return arm
        lifted, error = self.kin.solve("right", pos + up(short), rot, arm, iterations=200)
        return lifted if error <= IK_ERROR else arm

    def loaded(self) -> bool:
        """Whether the sandwich's centre is LOADED above its rest on the pan's floor."""
        rest = self.pan_floor() + ks.SANDWICH_HALF[2]
        return bool(self.kin.body_pos("sandwich")[2] > rest + LOADED)

    def sandwich_in_pan(self) -> bool:
        """Whether the sandwich's centre lies inside the pan's wall (horizontally)."""
        offset = (self.kin.body_pos("sandwich") - self.kin.body_pos("pan"))[:2]
        return bool(np.linalg.norm(offset) < ks.PAN_RADIUS)

    def sandwich_on_blade(self) -> tuple[float, float]:
        """The sandwich's centre from the blade's tip, along the blade and to its left
        (m, horizontal; world state)."""
        heading = self.blade_heading()
        held = self.kin.body_pos("sandwich") - self.blade_tip()
        return (float(held @ [np.cos(heading), np.sin(heading), 0.0]),
                float(held @ [-np.sin(heading), np.cos(heading), 0.0]))

    def far_wall(self, centre: np.ndarray, ahead: np.ndarray) -> np.ndarray:
        """The point WALL_GAP before the pan wall's inner face on the line from ``centre``
        along ``ahead`` (horizontal)."""
        inner = ks.PAN_RADIUS - 0.004  # the wall slabs are 8 mm thick, centred on the radius
        offset = (centre - self.kin.body_pos("pan"))[:2]
        along = float(offset @ ahead[:2])
        reach = -along + np.sqrt(along ** 2 - offset @ offset + (inner - WALL_GAP) ** 2)
        return centre + reach * ahead

    def sandwich_tilt(self) -> float:
        """The sandwich's faces' tilt from horizontal (rad, either face up; world state)."""
        return float(np.arccos(min(abs(float(self.kin.body_rot("sandwich")[2, 2])), 1.0)))

    def blade_heading(self) -> float:
        """The blade's heading (rad, from +x) in the world state."""
        rot = self.kin.body_rot("spatula")
        return float(np.arctan2(rot[1, 0], rot[0, 0]))

    def blade_roll(self) -> float:
        """The blade's roll about its axis (rad, its right edge down; world state)."""
        rot = self.kin.body_rot("spatula")
        cos_pitch = max(float(np.cos(self.blade_pitch())), 1e-6)
        return float(np.arcsin(np.clip(rot[2, 1] / cos_pitch, -1.0, 1.0)))

    def blade_pitch(self) -> float:
        """The blade's pitch (rad, nose down) in the world state."""
        return float(np.arcsin(np.clip(-self.kin.body_rot("spatula")[2, 0], -1.0, 1.0)))

    def blade_tip(self) -> np.ndarray:
        """World position of the blade's tip (world state)."""
        return self.kin.body_pos("spatula") + self.kin.body_rot("spatula") @ TIP


EXPERTS: dict[str, type[Expert]] = {"sandwich_remove": SandwichRemove}
