"""Experts for the dishwasher benchmark tasks (bench.tasks.dishwasher).

The scene: a counter ahead of the robot (front at x = 0.40, left edge at y = 0.30)
and, on its left, the dishwasher with its door open flat at knee height (0.41-0.50 m,
near edge at y = 0.31) and its bottom tray pulled out over the door (x 0.05-0.47).
The robot never stands on the door: it works from the corner between the counter and
the door, facing +x, and reaches to its left into the tray with the left hand.

Shared habits (``DishwasherExpert``):

* walking stops within STOP_TOLERANCE (0.025 m ahead, 0.05 m aside, 0.08 rad) with a
  MIN_WALK floor on the command: the embedded WBC stands below a 0.05 command norm and
  its gait sways the pelvis about 0.03 m sideways, so a tighter stop never triggers;
* a long reach is one multi-start inverse-kinematics solve (the arm's angles, a
  forward-reaching pose, perturbations of both; the exact solution nearest the arm
  wins), then a move in joint space (inverse kinematics followed step by step wanders
  to the joint limits or loses the pose), after which the shared tracking takes over;
* hand offsets are set by ``align`` (settle, measure, correct, twice) instead of the
  shared continuous learning, which the arm's lag on long reaches makes oscillate;
* an object in the hand is placed closed loop on the object itself: the hand target
  moves by the object's own position error (arm sag under load, body sway), read from
  the oracle state.

dishwasher_load_plates (``DishwasherLoadPlates``): the plates stand on edge in the
drainer facing the robot's right and stand the same way in the bottom tray's slots, so
a plate only has to keep its plane on the way. As in move_plate, the left hand pinches a
plate at its top rim, the jaw across the plate, and the plate hangs below the pinch and
keeps its plane: a turn of the hand about the jaw's axis turns the plate in its own
plane, which the task does not see. The robot stands PINCH_AHEAD behind the rim (the
rim is 1.10 m high: from 0.40 m a pitched hand does not reach over it; a stance from
which the hand cannot reach every pose of the take is walked again), the open jaw
rises behind the rim and comes to a stage behind and above it, over it, is corrected
onto it and comes down around it PINCH_DEPTH deep, pitched PINCH_PITCH (``around_rim``,
again where the jaw came down on the rim or beside it); the closed hand raises the
plate until its lowest point clears the drainer's dividers (the take is repeated if it
did not). The robot steps back, the hand still, until the plate has left the counter
behind (the tub's side wall rises to 1.07 m beyond x = 0.49 m along the counter's left
edge, so the plate passes to the tray only in front of the counter); the hand draws
the plate to the robot's left (SWING); the robot steps left beside the door and forward
to PLACE_STANCE (walked again while it stands more than PLACE_OFF off or out of reach of
the slot), the hand turns to PLACE_PITCH down, which reaches the seated plate's rim
there, brings the plate over its slot and lowers it, each move corrected on the plate's
centre, lets go just above its seat and draws up and back. The far slot is filled
first. Every arm move of this task is a joint-space move held in joint space
(``arm_to``): no Cartesian tracking, whose feedback through the body swung the
outstretched hand by centimetres, and corrections that measure the arm's lag in joint
space. 91 of the 100 official seeds succeed on the embedded default (docs/experts.md).

What the earlier drafts established (seed 620000, embedded default):

* a plate taken by its near rim with the hand nearly level is held at about one point:
  it turns about the jaw axis until it hangs below the pads, and the gait's sway tilts
  it out of its plane and out of the jaw; from beside the door a nearly level hand
  reaches the slots no lower than 0.82-0.86 m, 5-10 cm above where a plate is let go;
* the tracking inverse kinematics (30 iterations from the arm's angles) loses poses that
  a multi-start solve finds (moving to the robot's left side at 0.9-1.1 m), so the long
  moves are joint-space legs between solved poses; a fast swing of the arm turns
  holosoma by up to 0.35 rad or pushes it back.

dishwasher_load_cups: the cups (7.0 cm across) stand upside down on the counter. The
robot walks up to the counter with both hands raised (RIGHT_TUCK: the hanging right
hand's fingers would stop the walk 3 cm early), the cup 0.12 m left of the pelvis; the
left hand, pointing 15 degrees down with the jaw fully open (7.6 cm), comes to 10 cm
behind the cup and slides on (``slide_onto``) along a line fixed where the cup stood,
the target advancing only while the pinch site is within 2.5 mm of the line sideways
(the jaw leaves 3 mm either side; the embedded WBC's sway moves the hand 1-2 cm at
times), the offset servoing the error. The pelvis gets no closer to the counter than x
0.20-0.22 (feet and thighs against its front) and a square-standing hand reaches about
0.52 m ahead of it, so a cup beyond CUP_FAR (x 0.72; the cups lie at 0.65-0.75), and
the right-hand cup wherever it lies (squarely, its stance drifts toward the drawer's
handle), is taken from a stance turned CUP_STANCE_YAW (0.5 rad) to the right, where
the leading left shoulder puts the reach 4-6 cm further ahead, with the pelvis no
further right than y -0.08 (the drawer's handle); there the hand waits 20 cm behind
the cup while the robot corrects its stance, the slide servoes more gently, ends 1.2 cm
behind the cup's centre or at the arm's reach, the hand draws straight back before a
second slide, and a lifted cup is drawn 25 cm back before the robot turns square.
A slide that stops short is tried once more after a fresh walk; a cup that was not
lifted, or was dropped outside the tray, is taken again (up to CUP_TRIES takes). The
cup is drawn back over the counter's front (clear of the tub's side wall; the slide's
hand offset is dropped first), the robot steps left if the tray is out of reach, and
the hand, pointing 45 degrees left, brings the cup over the middle tray (at counter
height) and lets it drop in (any orientation counts), the second cup 12 cm nearer the
robot than the first one's spot when that is farther from the first cup. The cup
nearer the tray goes first.

dishwasher_close runs on the embedded default: it walks only upright (holosoma's
posture) and crouches only standing still (the standing controller). The scene has no
counter: the dishwasher stands alone 0.8 m to the left, door open and both trays out
over it. From beside the dishwasher (pelvis y 0.26, the left thigh clear of the door's
edge through the gait's sway) the left hand points 75 degrees down with its fingertips
dipped in front of a tray's front wall near its right end, the arm is held in joint
space, and the robot walks ahead (sideways drift held by an integral term) until the
tray is in or the walk stalls; a tray not in is pushed again. Then the robot goes round
to in front of the door, crouches (pelvis 0.50 m, torso 0.8 rad forward; the hanging
hands stay above the door until the pelvis drops), slides both hands, nearly level,
under the door 0.50 m from its hinge either side of the pelvis, and lifts it along its
arc standing still, the pelvis rising with the hands, the hand offsets taking up the
arms' sag (height only: a learned push ahead shoved the body back off its feet). From
0.3 rad up it holds the door while the stance rises to holosoma's posture, then walks
after the door, the hand targets leading it hard while it is heavy and gently once it
is light (a shove swung it shut and the robot lunged after it), never more than 0.45 m
ahead of the pelvis. A door that falls back is lifted again, up to three times.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from bench.policies.experts.kinematics import SIDES, rotation
from bench.policies.experts.plates import DIVIDER_TOP, HELD, in_plane
from bench.policies.experts.script import (
    KEYFRAME_ARMS,
    REACHABLE,
    STAND_HEIGHT,
    TURN_SPEED,
    WALK_GAIN,
    WALK_SETTLE,
    WALK_SPEED,
    Expert,
    Pose,
    min_jerk,
)
from bench.tasks import dishwasher_scene as ds
from bench.tasks.props import CUP_HEIGHT, PLATE_RADIUS

UP = np.array([0.0, 0.0, 1.0])
AHEAD = np.array([1.0, 0.0, 0.0])

# ----- walking ------------------------------------------------------------------------------
STOP_TOLERANCE = (0.025, 0.05, 0.08)  # m ahead, m aside (the gait sways), rad
MIN_WALK = 0.1  # m/s, slowest walking command (the embedded WBC stands below 0.05)
WALK_STEPS = 400  # control steps at most for one walk
STALL_STEPS, STALL = 50, 0.01  # a walk stops when it gained less than STALL (m) in the last
# STALL_STEPS control steps

# ----- arm ----------------------------------------------------------------------------------
ARM_FORWARD = np.array([-0.8, 0.0, 0.0, 0.3, 0.0, 0.4, 0.2])  # rad, left arm reaching ahead
IK_STARTS = 24  # inverse-kinematics starts for a long reach
IK_SPREAD = 0.3  # rad, spread of the perturbed starts
REACH_STEPS = 100  # control steps for a long reach in joint space (a fast swing of the arm
# turns the embedded WBC's stance)
READY = np.array([0.25, 0.22, 0.95])  # m, left pinch in the pelvis frame before a reach
ALIGN_PASSES = 2  # settle-and-correct passes of ``align``
ALIGN_SETTLE = 15  # control steps for the arm to settle before a correction
ALIGN_LIMIT = 0.10  # m, largest hand offset
GRIP_CLOSED = 1.0

# ----- plates -------------------------------------------------------------------------------
PINCH_AHEAD = 0.46  # m, the plate's top rim ahead of the pelvis when taking it, and aside:
PINCH_ASIDE = 0.25  # the hand reaches every pose of the take (the stage behind the rim,
# 1.2 m high, is the hardest) from 0.44 m ahead and 0.26-0.30 aside to 0.48 and 0.18-0.26
PINCH_DEPTH = 0.03  # m, the pinch site below the top of the rim
PINCH_PITCH = np.radians(32)  # the hand points this far below level as the jaw comes down
# around the rim (the housing clears the rim; as in move_plate)
CARRY_PITCH = np.radians(10)  # the hand while it comes over the rim and carries the plate
RIM_TOLERANCE = 0.003  # m, a settled error this small is not corrected
RIM_PASSES = 3  # corrections of the open jaw over the rim
RIM_ASIDE = 0.01  # m, the pads leave 1.1 cm either side of the plate
CORRECT_STEPS = 20  # control steps of a correction's joint-space move
RIM_TRIES = 3  # descents onto the rim at most
JAW_OPEN = 0.55  # closure: the pads 3.4 cm apart around the 1.2 cm plate
JAW_RELEASE = 0.0  # closure: fully open (7.6 cm) to let go; the pads clear the next plate
BEHIND, STAGE_RISE = 0.10, 0.09  # m, the open jaw comes to this far behind and above the
# rim's top (joint space; the plate's rim is 6.6 cm lower there), then forward over it
RISE_BEHIND = 0.10  # m, the hand first rises to the stage's height this far behind it,
# its orientation free (one joint-space move from the ready pose to the stage swept the
# fingers through the plate's rim and threw the plate off the counter, seed 620000)
RIM_ABOVE = 0.07  # m, the open jaw over the rim's top before it comes down
CLEARANCE = 0.04  # m, the lifted plate's lowest point above the dividers
LIFT_TRIES = 5  # raises of the hand until the plate clears them (the loaded arm sags)
PLATE_TRIES = 2  # takes of a plate at most
OFF_COUNTER = 0.33  # m, the robot steps back until the plate's far edge is at x = this
# (the counter top's front edge is at 0.38)
SWING = (np.array([0.36, 0.20, 1.10]), np.array([0.30, 0.30, 1.10]),
         np.array([0.12, 0.38, 1.10]))  # m, pinch in the pelvis frame (z in the world), as
# the hand draws the plate, clear of the counter now, to the robot's left; the plate
# hangs 0.19 m below the pinch, its lowest point 0.3 m over the tray's walls, and its far
# edge 0.26 m ahead of the pelvis (0.08 m further, it met the tub's side wall at x 0.49 and
# stopped the walk to PLACE_STANCE 4-6 cm short, seed 620000)
SWING_STEPS = 50  # control steps for each leg (slow: the plate hangs from the jaw)
PLACE_STANCE = (0.15, 0.14)  # m, pelvis x, y by the door (its near edge is at y 0.31, at
# knee height): the loaded arm reaching down to the left pushes the pelvis 3-5 cm right
# as it goes (620003), but asked for y 0.18 the gait swayed the left knee into the door's
# edge and the robot was pushed back 6 cm with every try (620000)
PLACE_OFF = 0.03  # m, a stance by the door further off than this is walked again
STANCE_WALKS = 4  # walks to a stance at most
PLATE_SLOTS = (2, 0)  # bottom-tray slots filled (0 nearest the robot), the far one first:
# with the first plate in slot 1, the second one's jaw came down against it
PLACE_PITCH = np.radians(60)  # the hand over the tray: pitched down it reaches the seated
# plate's rim (0.73 m) in slots 0 and 1 from PLACE_STANCE with 3 cm to spare (slot 2: 1
# cm); nearly level, 0.78-0.82 m
ABOVE_SLOT = 0.12  # m, the plate comes down into its slot from this far above (its
# first move, on the hang estimated for the turned hand, ended 4 cm low on 620000)
SLOT_CLEARANCE = 0.01  # m, plate centre above its resting height when the jaw opens
PLACE_PASSES = 3  # corrections of the plate's position over the slot and above its seat
CARRY_STEPS = 80  # control steps for a move of the loaded hand over the tray
WITHDRAW = 0.10  # m, the open hand rises this far off the released plate

# ----- cups ---------------------------------------------------------------------------------
HIGH_READY = np.array([0.30, 0.22, 1.05])  # m, pinch in the pelvis frame (z in the world)
# while walking up to the counter, the forearm well over the counter top
RIGHT_TUCK = np.array([0.22, -0.22, 1.05])  # m, the right hand over the counter's height:
# hanging, its fingers meet the counter's front and stop the walk about 3 cm earlier
CUP_STANCE_AHEAD = 0.50  # m, cup centre ahead of the pelvis at the counter (when the feet
CUP_STANCE_LIMIT = 0.215  # allow: the pelvis gets no closer than x 0.20-0.22; asking for
# more walks the feet into the counter's front and drifts the pelvis sideways)
CUP_FAR = 0.72  # m, cups beyond this x are taken from the turned stance
RIGHT_CUP_Y = 0.0  # m, cups right of this are taken from the turned stance too: squarely, the
# stance 0.12 m right of the cup drifted to pelvis y -0.27 to -0.31 as the arm reached (the
# right foot at the drawer's handle) and the jaw shoved the cup out of reach (700004, 700029,
# 700032)
CUP_STANCE_YAW = -0.5  # rad, the pelvis turned right at the counter (inverse kinematics: a
# hand pointing 15 degrees down at cup height reaches 0.59 m ahead instead of 0.53)
FAR_RIGHT_LIMIT = -0.08  # m, pelvis y at least this in the turned stance: further right the
# right foot met the drawer's handle (y -0.38 to -0.22) and the right cup was lost on 8
# of 20 official seeds (turned, the left hand reaches 0.57 m ahead even straight ahead)
CUP_ASIDE = 0.12  # m, cup centre left of the pelvis (where a level hand reaches furthest)
CUP_PITCH = np.radians(15)  # the hand points this far below level taking a cup (1-2 cm
# more reach than level)
CUP_RISE = 0.02  # m, the pinch site above the cup's centre (the pads 0.5 cm under its top)
CUP_FROM = np.array([-0.10, 0.0, 0.0])  # m, the open jaw slides onto the cup from here (its
# fingertips 3.5 cm behind the cup: the body sways 2 cm as the arm settles)
CUP_STAGE = np.array([-0.20, 0.0, 0.03])  # m, the hand waits here while the robot corrects
# its stance (a walk with the jaw 10 cm behind the cup swayed it into the cup)
SLIDE_STEPS = 50  # control steps of the slide, counting only the steps it may advance
SLIDE_GATE = 0.0025  # m, sideways error of the pinch site beyond which the slide waits: the
# open jaw (7.6 cm) leaves 3 mm either side of the cup (7.0 cm)
SLIDE_MAX, SLIDE_STALL = 250, 40  # control steps at most; the slide ends when its target
# could not advance for SLIDE_STALL steps (the arm's reach, or the sway)
SLIDE_LAG = 0.015  # m, largest lag of the pinch site along the line for the target to advance
SLIDE_X_OFFSET = 0.04  # m, largest offset along x (a stalled slide would wind it up)
CUP_SERVO_GAIN = 0.08  # share of the pinch site's error added to the offset per step
FAR_SERVO_GAIN = 0.03  # the same for a far cup: at 0.08 the hand at the edge of its reach
# wobbled 1-2 cm sideways and 2.5 cm up and down (seed 620016) and the slide stalled
CUP_CLOSE_AT = 0.012  # m, the slide ends with the pinch site this far behind the cup's
# centre: at the edge of the reach the hand then wobbles 1-3 cm and shoved far cups off
CUP_ACCEPT = 0.025  # m, pinch site at most this far behind the cup's centre to close: the
# pads reach 2.8 cm ahead of it, so they still pass the cup's widest line
CUP_LIFT = 0.05  # m
CUP_TRIES = 4  # takes of a cup (a miss, or a cup dropped outside the tray, is taken again)
FAR_DRAW = 0.25  # m, a far cup is drawn straight back this far before the robot turns
# square (turning with it at arm's length swung it into the tub's side wall, seed 700028)
CUP_HOLD = np.array([0.20, 0.15, 0.99])  # m, pinch in the pelvis frame (z in the world)
# while stepping to the tray: the cup over the counter, clear of the tub's side wall
DROP_SPOTS = (np.array([0.05, -0.19]), np.array([-0.07, -0.19]))  # m, drop points from the
# middle tray's centre (the cup's centre 0.07 m inside the near wall); a cup goes to the one
# farther from the cup already in the tray (dropped on it, a cup stacked on the upturned
# first one and rolled off to the floor, seed 700016). The second lies nearer the robot,
# not further left: a spot 0.12 m further left took a longer sideways walk, whose sway
# dipped the held cup into the tray's side wall (700003, 700005, 620019)
DROP_Z = 0.96  # m, pinch height when the jaw opens (the cup 4 cm over the tray's walls)
DROP_ASIDE = 0.43  # m, drop point at most this far left of the pelvis (a hand pointing
DROP_STANCE_ASIDE = 0.40  # DROP_YAW reaches it); the robot steps left to have it this far
# (walks stop within 5 cm aside; at 0.45 a walk that stopped 0.46 short was let through
# and the reach pushed the cup into the door's edge, seed 700004)
DROP_WALKS = 3  # sideways walks at most
SIDESTEP_STALL = 150  # control steps without gain that end a sideways walk to the tray:
# holosoma's first sideways steps with the cup held swayed the pelvis back and forth for
# over 50 steps, so the shared STALL_STEPS ended three walks in a row (620001)
DROP_YAW = np.radians(45)  # the hand points this far to the left over the tray
TRAY_STANCE_X = 0.16  # m, pelvis x when it steps left to bring a cup in reach of the tray
CUP_WITHDRAW = 0.08  # m, the open hand rises this far off the dropped cup

# ----- closing ----------------------------------------------------------------------------
FINGERTIP = 0.03  # m, the closed fingers' tips ahead of the pinch site
TRAY_STANCE_Y = 0.26  # m, pelvis y beside the dishwasher: the left thigh clears the open
# door's edge (y 0.51) through the gait's sway
TRAY_PUSH_ASIDE = 0.22  # m, the hand pushes the front wall this far right of the tray's
# centre (2 cm from its right end: within the pelvis's reach)
# Pushing a tray: the fingertips dip in front of its front wall (middle 0.80-0.85 m,
# bottom 0.53-0.61 m) near its right end, the hand TRAY_PUSH_PITCH below level and
# TRAY_PUSH_LEAD ahead of the pelvis, within a standing G1's reach (standing, the pinch
# site reaches no lower than about 0.52 m, and only close in; a level hand pushed by the
# walk sagged under the wall).
TRAY_PUSH_Z = {"middle_tray": ds.MIDDLE_TRAY_Z + 0.06, "bottom_tray": ds.BOTTOM_TRAY_Z + 0.09}
TRAY_PUSH_PITCH = np.radians(75)
TRAY_PUSH_LEAD = 0.20  # m
TRAY_LIFT = 0.08  # m, the hand rises this far off a pushed tray
TRAY_TRIES = 3  # pushes of a tray at most
SIDE_GAIN, SIDE_INTEGRAL = 2.0, 0.02  # 1/s and 1/s per step: sideways velocity command per
# metre of error while pushing, and the integral's share
WALK_RISE = 0.025  # m, the pelvis walks this much higher than holosoma stands
PUSH_SPEED = 0.15  # m/s, fastest walk while a hand pushes a tray or the door
PUSH_STEPS = 900  # control steps at most for a push (the robot makes about 0.1 m/s)
TRAY_WALL_HALF = 0.005  # m, half the front wall's thickness
TRAY_APPROACH = 0.05  # m, the fingertips start this far behind the front wall
TRAY_OVERSHOOT = 0.10  # m, the walk aims this far past the closed tray and ends once
# the tray is in (or against its stop): pressed by a standing robot, holosoma turns away
TRAY_SHUT = 0.02  # normalised tray position counted as in (the task takes 0.05)
LOWER_STEPS = 60  # control steps to lower the left arm after the trays
DOOR_SIDESTEP_X = -0.55  # m, pelvis x while stepping sideways past the door's free end
DOOR_STANCE_X = -0.38  # m, pelvis x in front of the open door's free end (x -0.22)
CROUCH_HEIGHT = 0.50  # m, pelvis height with the hands under the open door (at 0.45 m, the
# lowest the stance reaches, the door's weight took the planned holding torques to 0.56-0.62
# of the limits, past the stance's lean limit)
CROUCH_PITCH = 0.8  # rad, torso pitch then (the shoulders low and forward: a nearly level
# hand reaches under the door)
CROUCH_STEPS = 60  # control steps of the descent
CROUCH_SETTLE = 60  # control steps for the stance to engage and reach the crouch
DOOR_RADIUS = 0.50  # m, the hands lift the door this far from its hinge (the housings then
# under it too)
HAND_CLEAR = 0.06  # m, pinch site off the door's outer face
DOOR_HANDS_ASIDE = 0.20  # m, hands either side of the pelvis (0.06 m nearer the hinge than
# the door's handle)
DOOR_OFF_CENTRE = 0.08  # m, the hands' centre at most this far from the door's (the hands
# then stay 1 cm inside its edges)
DOOR_HAND_PITCH = 0.2  # rad, the hand points this far below level under the open door (its
# housing then clears the door's underside), level from DOOR_RISE_ANGLE on
DOOR_APPROACH = 0.06  # m, the hand comes in under the door from this far before its edge
DOOR_SLIDE_STEPS = 40  # control steps for the hand to slide in under the door
PELVIS_ABOVE_HANDS = 0.025  # m, pelvis height above the lifting hands while crouched
DOOR_RATE_CROUCHED = 0.003  # rad per control step and rad: fastest advance of the hand
DOOR_LEAD_CROUCHED = 0.05  # targets, and their lead on the door's elevation, while crouched
# (a faster lift shoves the stance off its feet)
DOOR_RISE_ANGLE = 0.3  # rad, door elevation from which the robot stands up, the door held,
# and then walks after it (the hands then about 0.5 m high: a standing G1's reach)
UPRIGHT_HEIGHT = 0.76  # m, the stance's height before a walk (holosoma's own posture)
UPRIGHT_TOLERANCE = 0.03  # m
DOOR_LEAD = 0.20  # rad, hand targets ahead of the door's elevation while walking after it
DOOR_RATE = 0.03  # rad per control step, fastest advance of the hand targets then
DOOR_EASE_ANGLE = 1.0  # rad, above this elevation the door is light: the targets lead it by
DOOR_RATE_EASED = 0.01  # DOOR_LEAD_CROUCHED, at most this fast (a hard shove swings it shut and
# the robot lunges after it)
DOOR_HAND_AHEAD = 0.25  # m, the walking pelvis this far behind the hands
DOOR_REACH = 0.45  # m, hand targets at most this far ahead of the walking pelvis
DOOR_OVER = 0.05  # rad, the targets go this far past closed
DOOR_SHUT = 0.02  # rad, the door counts as shut within this of closed
DOOR_HOLD = 25  # control steps the door is held shut before the hands draw back
DOOR_STEPS = 600  # control steps at most for the lift
DOOR_TRIES = 3  # lifts at most
DOOR_DROPPED = 0.1  # rad, a door held up that falls back below this elevation is lost
PUSH_GAIN = 0.1  # share of a lifting hand's height error added to its offset per step (the
# door's weight sags the arms)
DOOR_LEARN_BELOW = 1.2  # rad, the offsets learn only below this elevation (the door's
# weight; near closed a hand target past the door would wind them up)


def slot_centre(tray: np.ndarray, slot: int) -> np.ndarray:
    """World centre of a plate resting in bottom-tray ``slot``, the tray base at ``tray``."""
    y = ds.PLATE_ROW_Y + (slot - (ds.PLATE_SLOTS - 1) / 2) * ds.PLATE_PITCH
    height = 0.005 + ds.CRADLE_Z + float(np.sqrt((PLATE_RADIUS + ds.CRADLE_R) ** 2
                                                 - ds.CRADLE_X ** 2))
    return tray + np.array([ds.PLATE_ROW_X, y, height])


def pointing(pitch: float, yaw: float = 0.0) -> np.ndarray:
    """The direction ``yaw`` left of forward (+x) and ``pitch`` below level."""
    return np.array([np.cos(pitch) * np.cos(yaw), np.cos(pitch) * np.sin(yaw), -np.sin(pitch)])


class DishwasherExpert(Expert):
    """An Expert with the walking, reaching and placing habits the dishwasher tasks share.

    The hand offsets do not learn continuously (the shared integrator, fed by the arm's
    lag on long reaches, swings the hand by up to 0.1 m): ``align`` measures the settled
    error and corrects it in one go, twice."""

    def _learn_offsets(self) -> None:
        """No continuous learning (see the class docstring)."""

    def align(self, side: str) -> Iterator[None]:
        """Let the arm settle, add the hand's remaining position error to its offset;
        twice (the second pass takes what the first one's new arm angles sag). Only while
        the target is within reach."""
        for _ in range(ALIGN_PASSES):
            yield from self.wait(ALIGN_SETTLE)
            pos, rot = self.hand[side]
            if self.kin.solve(side, pos + self.offset[side], rot, self.arm[side])[1] > REACHABLE:
                break  # the error is out of reach, not sag: an offset would only grow
            error = pos - self.kin.pinch_pose(side)[0]
            offset = self.offset[side] + error
            self.offset[side] = offset * min(1.0, ALIGN_LIMIT / max(float(np.linalg.norm(offset)),
                                                                    1e-12))
        yield from self.wait(ALIGN_SETTLE)

    def walk_near(self, x: float, y: float, yaw: float = 0.0,
                  stall_steps: int = STALL_STEPS) -> Iterator[None]:
        """Walk the pelvis to within STOP_TOLERANCE of (x, y, yaw), closed loop, or until
        it stalls (less than STALL gained in ``stall_steps``), then stand for WALK_SETTLE
        steps. Hand targets are kept in the pelvis frame, so the hands travel with the
        body."""
        carried = {side: self.local(pose) for side, pose in self.hand.items()}
        distances: list[float] = []
        for _ in range(WALK_STEPS):
            px, py, pyaw = self.kin.pelvis_pose()
            dx, dy = x - px, y - py
            distances.append(float(np.hypot(dx, dy)))
            if len(distances) > stall_steps and distances[-stall_steps - 1] - distances[-1] < STALL:
                break  # against the furniture: closer is not to be had
            dyaw = float(np.arctan2(np.sin(yaw - pyaw), np.cos(yaw - pyaw)))
            cos, sin = np.cos(pyaw), np.sin(pyaw)
            ahead, aside = cos * dx + sin * dy, -sin * dx + cos * dy
            if (abs(ahead) < STOP_TOLERANCE[0] and abs(aside) < STOP_TOLERANCE[1]
                    and abs(dyaw) < STOP_TOLERANCE[2]):
                break
            body = np.array([ahead, aside]) * WALK_GAIN
            norm = max(float(np.linalg.norm(body)), 1e-9)
            body *= np.clip(norm, MIN_WALK, WALK_SPEED) / norm
            self.velocity = np.array([*body, np.clip(WALK_GAIN * dyaw, -TURN_SPEED, TURN_SPEED)])
            self.hand.update({side: self.world_pose(pose) for side, pose in carried.items()})
            yield
        self.velocity = np.zeros(3)
        yield from self.wait(WALK_SETTLE)

    def local(self, pose: Pose) -> Pose:
        """A world hand pose in the pelvis frame (x, y, yaw only)."""
        pos, rot = pose
        px, py, yaw = self.kin.pelvis_pose()
        turn = _rot_z(-yaw)
        return turn @ (pos - [px, py, 0.0]), None if rot is None else turn @ rot

    def world_pose(self, pose: Pose) -> Pose:
        """A pelvis-frame hand pose (``local``) back in the world."""
        pos, rot = pose
        px, py, yaw = self.kin.pelvis_pose()
        turn = _rot_z(yaw)
        return turn @ pos + [px, py, 0.0], None if rot is None else turn @ rot

    def ready(self, side: str = "left", steps: int = 40) -> Iterator[None]:
        """Raise the hand to READY in front of the chest (level, jaw across y)."""
        local = READY * np.array([1.0, 1.0 if side == "left" else -1.0, 1.0])
        yield from self.move({side: self.world_pose((local, np.eye(3)))}, steps)

    def plan(self, side: str, pos: np.ndarray, rot: np.ndarray | None
             ) -> tuple[np.ndarray, float]:
        """Arm angles for the pinch site at (pos, rot) from where the body stands, and
        their inverse-kinematics error. The solve starts from the arm's angles, from
        ARM_FORWARD and from IK_STARTS perturbations of both; of the exact solutions, the
        one nearest the arm's angles wins (no sweep through the scene), else the nearest
        miss."""
        rng = np.random.default_rng(0)
        forward = ARM_FORWARD * (1.0 if side == "left" else np.array([1, -1, -1, 1, -1, 1, -1]))
        current = self.arm[side]
        best, best_cost, best_error = current, np.inf, np.inf
        for k in range(IK_STARTS):
            centre = (current, forward)[k % 2]
            start = centre + (rng.normal(0.0, IK_SPREAD, 7) if k >= 2 else 0.0)
            q, error = self.kin.solve(side, pos, rot, start, iterations=150)
            cost = float(np.sum((q - current) ** 2)) + (0.0 if error < 0.003 else 100.0 * error)
            if cost < best_cost:
                best, best_cost, best_error = q, cost, error
        return best, best_error

    def reach(self, side: str, pos: np.ndarray, rot: np.ndarray | None, steps: int = REACH_STEPS,
              align: bool = True) -> Iterator[None]:
        """Put the pinch site at (pos, rot) by one inverse-kinematics solve (``plan``)
        and a joint-space move, then track it. ``align``: correct the sag afterwards (not
        while carrying something)."""
        best = self.plan(side, pos + self.offset[side], rot)[0]
        offset = self.offset[side].copy()
        self.hand.pop(side, None)  # no Cartesian tracking against the joint-space move
        yield from self.joints({side: best}, steps)
        self.offset[side] = offset
        self.hand[side] = (pos, rot)
        if align:
            yield from self.align(side)


def _rot_z(angle: float) -> np.ndarray:
    """Rotation matrix about the z axis."""
    cos, sin = np.cos(angle), np.sin(angle)
    return np.array([[cos, -sin, 0.0], [sin, cos, 0.0], [0.0, 0.0, 1.0]])


class DishwasherLoadPlates(DishwasherExpert):
    """Carry both plates from the drainer into bottom-tray slots with the left hand,
    each pinched at its top rim (the module docstring)."""

    aim: np.ndarray  # the pinch site's last target of ``arm_to``

    def script(self) -> Iterator[None]:
        yield from self.ready()
        plates = sorted(("plate_a", "plate_b"), key=lambda p: -self.kin.body_pos(p)[1])
        for plate, slot in zip(plates, PLATE_SLOTS, strict=True):
            for _ in range(PLATE_TRIES):
                yield from self.pick(plate)
                if self.lifted(plate):
                    break
                yield from self.let_go()
            else:
                continue
            yield from self.carry(plate, slot)
            if self.holding(plate):
                yield from self.place(plate, slot)
            yield from self.let_go()

    # ----- the plate and the hand ---------------------------------------------------------

    def rim(self, plate: str, direction: np.ndarray = UP) -> np.ndarray:
        """The point of the plate's rim furthest along ``direction`` (its top by
        default)."""
        return self.kin.body_pos(plate) + PLATE_RADIUS * in_plane(self.kin.body_rot(plate),
                                                                 direction)

    def holding(self, plate: str) -> bool:
        """Whether the plate is still in the hand (its centre near the pinch)."""
        return bool(np.linalg.norm(self.kin.body_pos(plate) - self.kin.pinch_pose("left")[0])
                    < HELD)

    def lifted(self, plate: str) -> bool:
        """Whether the held plate's lowest point is above the drainer's dividers."""
        return self.holding(plate) and bool(self.rim(plate, -UP)[2] > self.divider_top())

    def divider_top(self) -> float:
        """The height of the drainer's dividers' tops."""
        return float(self.kin.body_pos("drainer")[2] + DIVIDER_TOP)

    # ----- the script's parts -------------------------------------------------------------

    def pick(self, plate: str) -> Iterator[None]:
        """Stand PINCH_AHEAD behind the plate's top rim, bring the open jaw behind and
        above it (joint space), over it, and down around it; close the jaw and raise the
        plate until its lowest point clears the drainer's dividers."""
        top = self.rim(plate)
        carry, grasp = rotation(pointing(CARRY_PITCH)), rotation(pointing(PINCH_PITCH))
        stage = np.array([-BEHIND, 0.0, STAGE_RISE])
        yield from self.stand(top[0] - PINCH_AHEAD, top[1] - PINCH_ASIDE,
                              [(top + stage, carry), (top + RIM_ABOVE * UP, carry),
                               (top - PINCH_DEPTH * UP, grasp)])
        yield from self.grip("left", JAW_OPEN, 10)
        yield from self.arm_to(self.rim(plate) + stage - RISE_BEHIND * AHEAD, None, REACH_STEPS)
        yield from self.arm_to(self.rim(plate) + stage, carry, REACH_STEPS, ALIGN_PASSES)
        yield from self.around_rim(plate)
        yield from self.grip("left", GRIP_CLOSED, 15)
        yield from self.wait(10)
        for _ in range(LIFT_TRIES):
            rise = self.divider_top() + CLEARANCE - self.rim(plate, -UP)[2]
            if rise < 0.005 or not self.holding(plate):
                break
            yield from self.arm_to(self.aim + rise * UP, carry, max(20, int(rise * 500)))
            yield from self.wait(10)

    def arm_to(self, pos: np.ndarray, rot: np.ndarray | None, steps: int, passes: int = 0,
               goal: np.ndarray | None = None, measured: Callable[[], np.ndarray] | None = None
               ) -> Iterator[None]:
        """Put the left pinch site at (pos, rot) by one inverse-kinematics solve (from
        the arm's commanded angles, else ``plan``'s multi-start: its nearest exact solution
        can still lie on another branch, and the move between branches swung the loaded
        hand 0.2 m out over the tray, seed 620001) and a joint-space move, and hold the
        arm's angles there (no Cartesian tracking); then, ``passes`` times, let it settle
        and correct: solve again from the arm's measured angles (the body where it now
        stands) and command that solution less the arm's measured lag behind its
        command. With ``goal`` and ``measured`` (a held object's position), the pinch
        site's target is moved first so that the object, held as it now hangs, comes to
        ``goal``. ``self.aim`` keeps the last target.

        Tracking a world target with the arm stretched 0.45 m ahead at 1.1-1.2 m fed
        back through the body: the arm's swing turned the pelvis, the tracking answered,
        and the pinch site swung 3-4 cm about the rim every 20 control steps (seed
        620003). Correcting by the Cartesian error chased it too: each new solution
        lagged by its own 0.05-0.07 rad (the pinch site 3 cm off, the other way)."""
        side = "left"
        self.hand.pop(side, None)
        self.aim = pos
        q, error = self.kin.solve(side, pos, rot, self.arm[side], iterations=150)
        if error > REACHABLE:
            q = self.plan(side, pos, rot)[0]
        yield from self.joints({side: q}, steps)
        for _ in range(passes):
            yield from self.wait(ALIGN_SETTLE)
            pinch = self.kin.pinch_pose(side)[0]
            if goal is not None and measured is not None:
                self.aim = goal - (measured() - pinch)
            if np.linalg.norm(self.aim - pinch) < RIM_TOLERANCE:
                return
            actual = self.kin.arm_q(side)
            lag = actual - self.arm[side]
            q = self.kin.solve(side, self.aim, rot, actual, iterations=150)[0]
            yield from self.joints({side: np.clip(q - lag, self.kin.low[side],
                                                  self.kin.high[side])}, CORRECT_STEPS)

    def around_rim(self, plate: str) -> Iterator[None]:
        """Bring the open jaw over the rim's top, corrected onto it, then down around it,
        PINCH_DEPTH deep, uncorrected (corrections of the descent from the arm's lag
        pushed the plate 5 cm aside, seed 620003); a jaw that came down on the rim (its
        pinch site stopped above half that depth) or beside it (RIM_ASIDE or more off the
        plate's mid-plane: the descent's own lag put it 2.5 cm aside on seed 620011) rises
        and comes down again, up to RIM_TRIES times."""
        carry, grasp = rotation(pointing(CARRY_PITCH)), rotation(pointing(PINCH_PITCH))
        for _ in range(RIM_TRIES):
            yield from self.arm_to(self.rim(plate) + RIM_ABOVE * UP, carry, 40, RIM_PASSES)
            yield from self.arm_to(self.aim - (RIM_ABOVE + PINCH_DEPTH) * UP, grasp, 50)
            yield from self.wait(10)
            pinch, top = self.kin.pinch_pose("left")[0], self.rim(plate)
            aside = abs(float((pinch - top) @ self.kin.body_rot(plate)[:, 2]))
            if pinch[2] < top[2] - PINCH_DEPTH / 2 and aside < RIM_ASIDE:
                return

    def let_go(self) -> Iterator[None]:
        """Open the jaw fully (opened to JAW_OPEN only, a pad 6 mm off the plate's
        mid-plane dragged a placed plate 29 degrees over as the hand rose, seed 620040, or
        lifted it off its seat, 620026), draw the hand WITHDRAW up (corrected once:
        lagging 6 cm short, the jaw dragged a placed plate over as it drew back, seed
        620000), back over READY at that height (from over the drainer, the joint-space
        move straight to READY swept both plates off the counter: seeds 620004 and
        620011), and down to the ready pose."""
        yield from self.grip("left", JAW_RELEASE, 10)
        yield from self.wait(10)
        pos, rot = self.kin.pinch_pose("left")
        yield from self.arm_to(pos + WITHDRAW * UP, rot, 30, 1)
        back = np.array([READY[0], READY[1], pos[2] + WITHDRAW])
        yield from self.arm_to(self.world_pose((back, None))[0], None, REACH_STEPS)
        self.offset["left"] = np.zeros(3)
        yield from self.reach("left", *self.world_pose((READY, np.eye(3))), align=False)

    def carry(self, plate: str, slot: int) -> Iterator[None]:
        """Bring the plate over the tray: the robot steps back, the hand held still, until
        the plate has left the counter behind; the hand draws the plate to the robot's
        left (through SWING, in the pelvis frame); the robot steps left beside the door
        and forward to PLACE_STANCE. The tub's side wall rises to 1.07 m beyond x = 0.49
        m along the counter's left edge, so the plate passes to the tray only in front of
        the counter."""
        far = self.kin.body_pos(plate)[0] + PLATE_RADIUS
        px, py, _ = self.kin.pelvis_pose()
        yield from self.walk_near(px - max(0.0, far - OFF_COUNTER), py)
        rot = rotation(pointing(CARRY_PITCH))
        for waypoint in SWING:  # joint-space legs, the arm then held in joint space: the
            # tracking loses these poses, and tracking the loaded hand through the walk to
            # the tray swung it 10 cm and the pelvis 6 cm aside with each step (620000)
            yield from self.arm_to(self.world_pose((waypoint, rot))[0], rot, SWING_STEPS)
        yield from self.walk_near(self.kin.pelvis_pose()[0], PLACE_STANCE[1])
        seated = slot_centre(self.kin.body_pos("bottom_tray"), slot) + (
            PLATE_RADIUS - PINCH_DEPTH + SLOT_CLEARANCE) * UP
        yield from self.stand(*PLACE_STANCE, [(seated, rotation(pointing(PLACE_PITCH)))],
                              PLACE_OFF)

    def stand(self, x: float, y: float, poses: list[Pose], off: float = np.inf
              ) -> Iterator[None]:
        """Walk to the pelvis position (x, y) facing +x, again (up to STANCE_WALKS walks)
        while the left hand cannot reach every one of ``poses`` from where the robot
        stopped. Walks stop within 5 cm aside and the pelvis drifts 3-4 cm as it settles
        (on seed 620000 the stance for the second plate came out 10 cm right of its
        place and the one by the door 6 cm short), while the poses that take a plate
        out of the drainer are all reached only within about 2 cm ahead and 4 cm aside
        of PINCH_AHEAD, PINCH_ASIDE (inverse kinematics on the expert's scene). With
        ``off``, also while it stopped further than that from (x, y)."""
        for _ in range(STANCE_WALKS):
            yield from self.walk_near(x, y)
            px, py, yaw = self.kin.pelvis_pose()
            if (abs(yaw) < STOP_TOLERANCE[2] and max(abs(px - x), abs(py - y)) < off
                    and all(self.plan("left", pos, rot)[1] < REACHABLE for pos, rot in poses)):
                return

    def place(self, plate: str, slot: int) -> Iterator[None]:
        """Bring the plate over ``slot`` with the hand pitched PLACE_PITCH down (the plate
        turns in its own plane), lower it, closed loop on its centre, to SLOT_CLEARANCE
        above its seat, and let go."""
        centre = slot_centre(self.kin.body_pos("bottom_tray"), slot)
        rot = rotation(pointing(PLACE_PITCH))
        pinch, held = self.kin.pinch_pose("left")
        hang = rot @ held.T @ (self.kin.body_pos(plate) - pinch)  # the plate turns with the hand
        above = centre + ABOVE_SLOT * UP

        def plate_centre() -> np.ndarray:
            return self.kin.body_pos(plate)

        yield from self.arm_to(above - hang, rot, CARRY_STEPS, PLACE_PASSES, above, plate_centre)
        low = centre + SLOT_CLEARANCE * UP
        yield from self.arm_to(self.aim + low - above, rot, CARRY_STEPS, PLACE_PASSES, low,
                               plate_centre)


class DishwasherLoadCups(DishwasherExpert):
    """Take each cup across with the left hand, carry it over the middle tray and let it
    drop in (any orientation counts); the cup nearer the tray first."""

    turned = False  # the cup being taken is taken from the turned stance (beyond CUP_FAR, or
    # right of RIGHT_CUP_Y)

    def script(self) -> Iterator[None]:
        yield from self.ready()
        yield from self.reach("right", *self.world_pose((RIGHT_TUCK, np.eye(3))), align=False)
        self.hand.pop("right")  # the right arm keeps these angles from now on
        for cup in sorted(("cup_a", "cup_b"), key=lambda c: -self.kin.body_pos(c)[1]):
            for _ in range(CUP_TRIES):
                if self.in_tray(cup) or self.kin.body_pos(cup)[2] < ds.COUNTER_TOP:
                    break  # loaded, or off the counter (the tray or the door: out of reach)
                standing = self.kin.body_pos(cup)[2]
                yield from self.take_cup(cup)
                if self.kin.body_pos(cup)[2] > standing + CUP_LIFT / 2:
                    if self.turned:  # draw the cup back, then turn square before the carry
                        pos, rot = self.hand["left"]
                        yield from self.move({"left": (pos - FAR_DRAW * AHEAD, rot)}, 40,
                                             contact=True)
                        x, y, _ = self.kin.pelvis_pose()
                        yield from self.walk_near(x, y, 0.0)
                    yield from self.carry_cup(cup)
                    yield from self.drop_cup()
                    continue
                yield from self.grip("left", 0.0, 5)  # missed: open, raise, try again
                yield from self.move({"left": (self.hand["left"][0] + CUP_LIFT * UP,
                                               self.hand["left"][1])}, 20)
                if self.turned:
                    yield from self.back_off()

    def in_tray(self, cup: str) -> bool:
        """Whether ``cup`` lies within the middle tray's outline, below its walls' tops
        plus a cup's height."""
        pos, tray = self.kin.body_pos(cup), self.kin.body_pos("middle_tray")
        return bool(abs(pos[0] - tray[0]) < ds.TRAY_DEPTH / 2
                    and abs(pos[1] - tray[1]) < ds.TRAY_HALF_WIDTH
                    and pos[2] < tray[2] + CUP_HEIGHT + 0.05)

    def back_off(self) -> Iterator[None]:
        """Draw the left hand straight back from the cup to CUP_STAGE's distance (a
        joint-space reach from beside a cup sweeps the open jaw through it)."""
        pos, rot = self.commanded_pose("left")
        yield from self.move({"left": (pos + CUP_STAGE - CUP_FROM, rot)}, 25)

    def cup_stance(self, cup: str) -> tuple[float, float, float]:
        """Pelvis x, y and yaw for taking ``cup`` (as close to the counter as the feet
        allow); turned CUP_STANCE_YAW to the right (the left shoulder then leads, which
        puts the hand's reach 4-6 cm further ahead) and no further right than
        FAR_RIGHT_LIMIT when ``turned``."""
        centre = self.kin.body_pos(cup)
        if self.turned:
            return (min(centre[0] - CUP_STANCE_AHEAD, CUP_STANCE_LIMIT),
                    max(centre[1] - CUP_ASIDE, FAR_RIGHT_LIMIT), CUP_STANCE_YAW)
        return min(centre[0] - CUP_STANCE_AHEAD, CUP_STANCE_LIMIT), centre[1] - CUP_ASIDE, 0.0

    def take_cup(self, cup: str) -> Iterator[None]:
        """Walk up to the cup with the hand raised, bring the open jaw behind it, slide it
        on (``slide_onto``; once more after a fresh walk if it stopped short), close and
        lift. A cup beyond CUP_FAR or right of RIGHT_CUP_Y is taken from the turned stance
        (``cup_stance``), the hand waiting at CUP_STAGE while the robot corrects its stance
        and drawing straight
        back before a second slide."""
        centre = self.kin.body_pos(cup)
        self.turned = bool(centre[0] > CUP_FAR or centre[1] < RIGHT_CUP_Y)
        rot = rotation(pointing(CUP_PITCH))
        yield from self.reach("left", *self.world_pose((HIGH_READY, np.eye(3))), align=False)
        yield from self.walk_near(*self.cup_stance(cup))
        yield from self.grip("left", 0.0, 5)
        self.offset["left"] = np.zeros(3)
        for attempt in range(2):
            if attempt and self.turned:
                yield from self.back_off()
            stage = CUP_STAGE if self.turned else CUP_FROM
            yield from self.reach("left", self.kin.body_pos(cup) + CUP_RISE * UP + stage, rot)
            yield from self.walk_near(*self.cup_stance(cup))  # the reach turns the body
            if self.turned:
                yield from self.move({"left": (self.kin.body_pos(cup) + CUP_RISE * UP
                                               + CUP_FROM, rot)}, 30)
            yield from self.slide_onto(cup, rot)
            if self.kin.body_pos(cup)[0] - self.kin.pinch_pose("left")[0][0] < CUP_ACCEPT:
                break
        yield from self.grip("left", GRIP_CLOSED, 12)
        yield from self.wait(5)
        yield from self.move({"left": (self.hand["left"][0] + CUP_LIFT * UP, rot)}, 25,
                             contact=True)

    def slide_onto(self, cup: str, rot: np.ndarray) -> Iterator[None]:
        """Slide the open jaw from CUP_FROM onto the cup (where it stood when the slide
        began: a cup the fingers nudge is not chased), the target advancing only while the
        pinch site is within SLIDE_GATE of the line sideways, 2 cm vertically and
        SLIDE_LAG along it; the offset servoes the pinch site's error. Ends on the cup
        (or CUP_CLOSE_AT behind its centre), when the target has not advanced for
        SLIDE_STALL steps (the arm's reach), or after SLIDE_MAX."""
        centre = self.kin.body_pos(cup) + CUP_RISE * UP
        left, waited = 1.0, 0
        for _ in range(SLIDE_MAX):
            target = centre + CUP_FROM * min_jerk(left)
            self.hand["left"] = (target, rot)
            error = target - self.kin.pinch_pose("left")[0]
            gain = FAR_SERVO_GAIN if self.turned else CUP_SERVO_GAIN
            offset = self.offset["left"] + gain * error
            offset[0] = np.clip(offset[0], -SLIDE_X_OFFSET, SLIDE_X_OFFSET)
            self.offset["left"] = offset * min(1.0, ALIGN_LIMIT / max(float(np.linalg.norm(offset)),
                                                                      1e-12))
            behind = self.kin.body_pos(cup)[0] - self.kin.pinch_pose("left")[0][0]
            if ((left == 0.0 and abs(error[0]) < 0.005) or waited > SLIDE_STALL
                    or (self.turned and behind < CUP_CLOSE_AT)):
                break
            ahead = centre + CUP_FROM * min_jerk(max(0.0, left - 1.0 / SLIDE_STEPS))
            if self.turned and self.kin.solve("left", ahead + self.offset["left"], rot,
                                           self.arm["left"])[1] > REACHABLE:
                # the arm's reach: pressing on twists the arm into the cup
                if behind < CUP_ACCEPT:
                    break
                waited += 1
            elif abs(error[1]) < SLIDE_GATE and abs(error[2]) < 0.02 and error[0] < SLIDE_LAG:
                left, waited = max(0.0, left - 1.0 / SLIDE_STEPS), 0
            else:
                waited += 1
            yield
        yield from self.wait(5)

    def drop_point(self, cup: str) -> np.ndarray:
        """Where the pinch site lets ``cup`` go: over the DROP_SPOTS spot farther from the
        other cup when that one is in the tray, else over the first."""
        tray = self.kin.body_pos("middle_tray")
        spots = [np.array([*(tray[:2] + spot), DROP_Z]) for spot in DROP_SPOTS]
        other = next(c for c in ("cup_a", "cup_b") if c != cup)
        if self.in_tray(other):
            held = self.kin.body_pos(other)[:2]
            spots.sort(key=lambda spot: -float(np.linalg.norm(spot[:2] - held)))
        return spots[0]

    def carry_cup(self, cup: str) -> Iterator[None]:
        """Draw the cup back over the counter's front (CUP_HOLD), step left when the drop
        point (``drop_point``) is more than DROP_ASIDE left of the pelvis, and bring it over
        the middle tray, the hand pointing DROP_YAW to the left (joint-space legs: the
        tracking loses poses on the robot's left)."""
        self.offset["left"] = np.zeros(3)  # the slide's offset would carry the cup 4 cm further
        # out, where the gait's sway swung it into the corner of the tub's side wall (700001)
        yield from self.reach("left", *self.world_pose((CUP_HOLD, np.eye(3))), 40, align=False)
        drop = self.drop_point(cup)
        for _ in range(DROP_WALKS):  # a sideways walk sometimes stops short
            if self.kin.pelvis_pose()[1] < drop[1] - DROP_ASIDE:
                yield from self.walk_near(TRAY_STANCE_X, drop[1] - DROP_STANCE_ASIDE,
                                          stall_steps=SIDESTEP_STALL)
        yield from self.reach("left", drop, rotation(pointing(0.0, DROP_YAW)), 50, align=False)
        yield from self.wait(10)

    def drop_cup(self) -> Iterator[None]:
        """Open the jaw, let the cup fall into the tray, raise the open hand."""
        yield from self.grip("left", 0.0, 8)
        yield from self.wait(15)
        pos, rot = self.hand["left"]
        yield from self.move({"left": (pos + CUP_WITHDRAW * UP, rot)}, 20)


class DishwasherClose(DishwasherExpert):
    """Push both trays in from beside the dishwasher, then lift the door shut from in
    front of it: crouched and still at first, then upright and walking (the module
    docstring)."""

    def script(self) -> Iterator[None]:
        self._door_qpos = int(self.kin.model.joint("dishwasher_door").qposadr[0])
        self._front_y = float(self.kin.body_pos("dishwasher")[1])
        yield from self.ready()
        for tray in ("middle_tray", "bottom_tray"):
            for _ in range(TRAY_TRIES):
                yield from self.push_tray(tray)
                if self.tray_in(tray):
                    break
        yield from self.walk_near(DOOR_SIDESTEP_X, TRAY_STANCE_Y)
        yield from self.joints({"left": KEYFRAME_ARMS["left"]}, LOWER_STEPS)  # hanging, the
        # hands stay above the door (0.41-0.50 m) until the pelvis drops, which draws
        # them back before the lean brings them forward, under it
        yield from self.walk_near(DOOR_SIDESTEP_X, self._front_y, stall_steps=SIDESTEP_STALL)
        for attempt in range(DOOR_TRIES):
            if attempt:
                yield from self.stand_back()
            yield from self.lift_door()
            if self.door_angle() > ds.DOOR_OPEN - DOOR_SHUT:
                break

    def tray_in(self, tray: str) -> bool:
        """Whether ``tray`` is pushed in (TRAY_SHUT of its travel)."""
        joint = self.kin.model.joint(tray)
        return bool(self.kin.data.qpos[joint.qposadr[0]] < TRAY_SHUT * joint.range[1])

    def stand_back(self) -> Iterator[None]:
        """After a lift that lost the door: hands down, upright, back to the stance the
        next lift starts from."""
        for side in SIDES:
            self.offset[side] = np.zeros(3)
        self.velocity = np.zeros(3)
        self.height, self.torso_pitch = STAND_HEIGHT, 0.0
        yield from self.joints(dict(KEYFRAME_ARMS), LOWER_STEPS)
        yield from self.walk_near(DOOR_SIDESTEP_X, self._front_y)

    def push_tray(self, tray: str) -> Iterator[None]:
        """Stand beside the dishwasher (pelvis y TRAY_STANCE_Y), put the left hand in front
        of the tray's front wall near its right end (TRAY_PUSH_Z, _PITCH, _LEAD) and
        walk ahead, the arm held in joint space and the sideways drift held by an
        integral term, until the tray is in or the walk stalls; draw the hand back and
        up."""
        z, pitch, lead = TRAY_PUSH_Z[tray], TRAY_PUSH_PITCH, TRAY_PUSH_LEAD
        tip = FINGERTIP * np.cos(pitch)  # the fingertips ahead of the pinch site
        front = self.kin.body_pos(tray)[0] - ds.TRAY_DEPTH / 2 - TRAY_WALL_HALF
        hand_y = self._front_y - TRAY_PUSH_ASIDE
        start = front - tip - TRAY_APPROACH
        self.height = STAND_HEIGHT
        yield from self.walk_near(start - lead, TRAY_STANCE_Y)
        px = self.kin.pelvis_pose()[0]  # the walk stops within STOP_TOLERANCE
        lead = min(lead, start - px)
        rot = rotation(pointing(pitch))
        yield from self.reach("left", np.array([px + lead, hand_y, z - WALK_RISE]), rot,
                              align=False)
        self.hand.pop("left")  # the arm holds its angles while the body walks (tracking a
        # world target through the gait's sway and bounce swung the hand by 10-15 cm)
        closed = ds.TRAY_CLOSED_X - ds.TRAY_DEPTH / 2 - TRAY_WALL_HALF
        progress: list[float] = []
        drift = 0.0  # integral of the sideways error (holosoma ignores small sideways commands)
        for _ in range(PUSH_STEPS):  # walk ahead, the arm held
            px, py, pyaw = self.kin.pelvis_pose()
            progress.append(px)
            drift += SIDE_INTEGRAL * (TRAY_STANCE_Y - py)
            if self.tray_in(tray) or (len(progress) > STALL_STEPS
                                      and progress[-1] - progress[-STALL_STEPS - 1] < STALL):
                break
            world = np.array([np.clip(WALK_GAIN * (closed - tip - lead + TRAY_OVERSHOOT - px),
                                      MIN_WALK, PUSH_SPEED),
                              np.clip(SIDE_GAIN * (TRAY_STANCE_Y - py) + drift, -WALK_SPEED,
                                      WALK_SPEED)])
            cos, sin = np.cos(pyaw), np.sin(pyaw)
            self.velocity = np.array([cos * world[0] + sin * world[1],
                                      -sin * world[0] + cos * world[1],
                                      np.clip(-WALK_GAIN * pyaw, -TURN_SPEED, TURN_SPEED)])
            yield
        self.velocity = np.zeros(3)
        pos, rot = self.kin.pinch_pose("left")
        yield from self.move({"left": (pos - TRAY_APPROACH * AHEAD, rot)}, 15)
        yield from self.move({"left": (pos + TRAY_LIFT * UP - TRAY_APPROACH * AHEAD, rot)}, 15)

    def door_angle(self) -> float:
        """The door's elevation above its open position (0 open flat, pi/2 closed)."""
        return ds.DOOR_OPEN - float(self.kin.data.qpos[self._door_qpos])

    def door_point(self, angle: float) -> np.ndarray:
        """Pinch site (x, z) for a hand pushing the door's outer face at DOOR_RADIUS from
        the hinge with the door at elevation ``angle``: HAND_CLEAR off the face."""
        along = np.array([-np.cos(angle), np.sin(angle)])
        outward = np.array([-np.sin(angle), -np.cos(angle)])
        return np.array([ds.DW_FRONT, ds.HINGE_Z]) + DOOR_RADIUS * along + HAND_CLEAR * outward

    def lift_door(self) -> Iterator[None]:
        """One lift (the module docstring): from in front of the open door, crouch, slide
        both hands under it and lift it along its arc standing still up to
        DOOR_RISE_ANGLE; stand up holding it; walk after it until it is shut (hold, then
        draw back) or until it falls back below DOOR_DROPPED."""
        sides = (("left", 1.0), ("right", -1.0))
        yield from self.walk_near(DOOR_STANCE_X, self._front_y)
        yield from self.rise(CROUCH_HEIGHT, CROUCH_STEPS)
        yield from self.lean(CROUCH_PITCH)
        yield from self.wait(CROUCH_SETTLE)
        edge = ds.DW_FRONT - ds.DOOR_LENGTH  # the open door's free edge
        x, z = self.door_point(0.0)
        py = self.kin.pelvis_pose()[1]  # the hands either side of the pelvis, not of the
        # door: pushed off centre, the arms twist the crouched body
        centre = float(np.clip(py, self._front_y - DOOR_OFF_CENTRE,
                               self._front_y + DOOR_OFF_CENTRE))
        rot = rotation(pointing(DOOR_HAND_PITCH))
        for side, _ in sides:
            self.offset[side] = np.zeros(3)
        yield from self.move({side: (np.array([edge - DOOR_APPROACH, centre
                                               + sign * DOOR_HANDS_ASIDE, z]), rot)
                              for side, sign in sides}, DOOR_SLIDE_STEPS)
        yield from self.move({side: (np.array([x, centre + sign * DOOR_HANDS_ASIDE, z]),
                                     rot) for side, sign in sides}, DOOR_SLIDE_STEPS)
        target, shut, phase = 0.0, 0, "crouched"
        for _ in range(DOOR_STEPS):
            angle = self.door_angle()
            shut = shut + 1 if angle > ds.DOOR_OPEN - DOOR_SHUT else 0
            if shut > DOOR_HOLD:
                break
            if phase != "crouched" and angle < DOOR_DROPPED:
                break  # lost: the script lifts again (DOOR_TRIES)
            px, py, pyaw = self.kin.pelvis_pose()
            if phase == "crouched" and angle > DOOR_RISE_ANGLE:
                phase = "rising"
            upright = self.kin.body_pos("pelvis")[2] > UPRIGHT_HEIGHT - UPRIGHT_TOLERANCE
            if phase == "rising" and upright:
                phase = "walking"
            if phase == "crouched":  # still, the pelvis rising with the hands
                target = min(angle + DOOR_LEAD_CROUCHED, target + DOOR_RATE_CROUCHED)
                x, z = self.door_point(target)
                self.height = float(np.clip(z + PELVIS_ABOVE_HANDS, CROUCH_HEIGHT, STAND_HEIGHT))
                rise = (self.height - CROUCH_HEIGHT) / (STAND_HEIGHT - CROUCH_HEIGHT)
                self.torso_pitch = CROUCH_PITCH * (1.0 - rise)
            elif phase == "rising":  # the door held where it is while the body stands up
                x, z = self.door_point(target)
                self.height, self.torso_pitch = UPRIGHT_HEIGHT, 0.0
            else:  # upright, walking after the door (a G1 walks only at holosoma's posture)
                lead, rate = ((DOOR_LEAD, DOOR_RATE) if angle < DOOR_EASE_ANGLE
                              else (DOOR_LEAD_CROUCHED, DOOR_RATE_EASED))
                target = min(angle + lead, target + rate, ds.DOOR_OPEN + DOOR_OVER)
                x, z = self.door_point(target)
                x = min(x, px + DOOR_REACH)  # the arms never drag the body after the door
                ahead = WALK_GAIN * (x - DOOR_HAND_AHEAD - px)
                ahead = float(np.sign(ahead) * np.clip(abs(ahead), MIN_WALK, PUSH_SPEED))
                self.velocity = np.array([ahead, np.clip(SIDE_GAIN * (centre - py),
                                                         -PUSH_SPEED, PUSH_SPEED),
                                          np.clip(-WALK_GAIN * pyaw, -TURN_SPEED, TURN_SPEED)])
            rot = rotation(pointing(DOOR_HAND_PITCH * max(0.0, 1.0 - target / DOOR_RISE_ANGLE)))
            for side, sign in sides:
                pos = np.array([x, centre + sign * DOOR_HANDS_ASIDE, z])
                self.hand[side] = (pos, rot)
                if angle < DOOR_LEARN_BELOW:
                    error = (pos - self.kin.pinch_pose(side)[0]) * [0.0, 0.0, 1.0]  # the
                    # door's weight sags the arms; a learned push ahead would shove the body back
                    self.shift_offset(side, PUSH_GAIN * error, ALIGN_LIMIT)
            yield
        self.velocity = np.zeros(3)
        for side, _ in sides:
            pos, held = self.hand[side]
            self.hand[side] = (pos - DOOR_APPROACH * AHEAD, held)
            self.offset[side] = np.zeros(3)
        yield from self.wait(DOOR_HOLD)


EXPERTS: dict[str, type[Expert]] = {"dishwasher_close": DishwasherClose,
                                    "dishwasher_load_cups": DishwasherLoadCups,
                                    "dishwasher_load_plates": DishwasherLoadPlates}

