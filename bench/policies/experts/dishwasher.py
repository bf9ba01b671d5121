"""Dishwasher benchmark tasks (bench.tasks.dishwasher): why they have no expert yet.

What was established while writing the experts, on the embedded default WBC:

* dishwasher_close cannot be solved standing. The open door lies flat at 0.41-0.50 m
  with its handle at 0.38 m; with the pelvis at the embedded default's fixed height the
  pinch sites reach no lower than about 0.52 m anywhere in front of or beside the body
  (test/test_experts_dishwasher.py measures it), so no hand gets under the door or its
  handle to lift it. Seed 000 says the G1 reaches the door at its 0.40 m minimum height
  with the torso pitched: the task needs the height and torso-pitch commands that the
  embedded default lacks (the official GR00T pair and the floating base have them).
* In the load tasks the open door also fences the robot off: its near edge is at
  y = 0.31 m, so the pelvis stands at most about 0.12 m left of the origin, and the
  left hand reaches only the bottom tray's two nearest plate slots (y 0.52 and 0.56 m),
  and those only with the plate's centre about 0.05 m above its resting height.
* The gripper is a position servo (800 N/m, 40 N limit) whose closed target has the
  pads touching, so it squeezes an object of width w with about 400 w N per finger:
  5 N on a plate, 1 N on the knife's blade. A plate taken by its rim pivots about the
  pads and slips out on the lift; with a ten times stiffer servo the same script lifts
  it and carries it through the walk.
"""

from __future__ import annotations

from bench.policies.experts.script import Expert

EXPERTS: dict[str, type[Expert]] = {}

PENDING: dict[str, str] = {
    "dishwasher_close": (
        "needs the height and torso-pitch commands the embedded default lacks: the open "
        "door lies at 0.41-0.50 m (handle 0.38 m) and a standing G1's pinch sites reach no "
        "lower than about 0.52 m, so nothing can lift the door (seed 000: the G1 reaches "
        "it at 0.40 m pelvis height with the torso pitched)"),
    "dishwasher_load_plates": (
        "expert not finished: the gripper squeezes a 12 mm plate with only about 5 N per "
        "finger (an 800 N/m position servo stopped 6 mm short of closed), so the plate "
        "pivots and slips out of a rim grasp (with 8000 N/m it is lifted and carried); "
        "and from beside the open door the hand reaches only the two nearest slots"),
    "dishwasher_load_cups": (
        "expert not written yet: the cups are 8.8 cm wide for a 7.6 cm jaw and stand "
        "upside down (no grip across or inside); sliding one off the counter's left edge "
        "into the middle tray first needs it drawn 0.2-0.3 m toward the robot, since the "
        "tub's side wall rises flush with that edge beyond x = 0.49 m"),
    "dishwasher_load_cutlery": "expert not written yet",
}
