"""put_cups' expert (bench.policies.experts.cabinet_cups): its registration, the reach
its script is built on, and how it shares the cups between the hands. From the door
stance the hand takes a cup only with the torso pitched forward, and sets it on the
shelf only with the pelvis raised as well: the commands the embedded default WBC lacks
(inverse kinematics on the experts' copy of the scene, the doors open)."""

from __future__ import annotations

import numpy as np
from expert_states import kinematics_at_reset

from bench.policies.experts import DRAFTS, EXPERTS, NEEDS_COMMAND, PENDING, cabinet_cups, kitchen
from bench.policies.experts.kinematics import rotation
from bench.policies.experts.script import KEYFRAME_ARMS, STAND_HEIGHT
from bench.tasks import kitchen_scene as ks

STANCE = (0.45, -0.15)  # m, pelvis x and y: a cup at y 0 taken by the left hand
PELVIS_Z = STAND_HEIGHT  # m, the floating base puts the pelvis at the height command


def test_put_cups_is_an_expert_that_needs_the_commands():
    """In EXPERTS with the measured NEEDS_COMMAND reason (so test_experts.py runs it on
    the floating base), no longer a draft or pending."""
    assert EXPERTS["put_cups"] is cabinet_cups.PutCups
    assert NEEDS_COMMAND["put_cups"] == cabinet_cups.NEEDS_COMMAND["put_cups"]
    assert "put_cups" not in DRAFTS and "put_cups" not in PENDING
    assert "put_cups" not in kitchen.EXPERTS


def _misses(pelvis_z: float, pitch: float, points: dict[str, tuple[float, float]]
            ) -> dict[str, float]:
    """For each (x, z) point at y 0, the weighted pose error the left hand keeps there
    (pointing HAND_DOWN below level along +x, jaw horizontal) at the best of ten
    inverse-kinematics starts, the pelvis at STANCE and ``pelvis_z``, the waist pitched
    ``pitch``, the glass doors open."""
    kin, qpos = kinematics_at_reset("put_cups")
    model = kin.model
    for door in ks.WALL_DOORS:
        joint = model.joint(ks.joint_name(door))
        qpos[joint.qposadr[0]] = joint.range[1]
    qpos[:3] = (*STANCE, pelvis_z)
    qpos[3:7] = (1.0, 0.0, 0.0, 0.0)
    qpos[model.joint("waist_pitch_joint").qposadr[0]] = pitch
    kin.set_state(qpos)
    down = cabinet_cups.HAND_DOWN
    hand = rotation(np.array([np.cos(down), 0.0, -np.sin(down)]))
    rng = np.random.default_rng(0)
    misses = {}
    for name, (x, z) in points.items():
        starts = [KEYFRAME_ARMS["left"]] + [KEYFRAME_ARMS["left"] + rng.normal(0.0, 0.5, 7)
                                            for _ in range(9)]
        misses[name] = min(kin.solve("left", np.array([x, 0.0, z]), hand, q,
                                     iterations=200)[1] for q in starts)
    return misses


def test_the_lean_reaches_the_cup_and_the_raised_pelvis_the_shelf():
    """A cup's grip (x 0.965, at the cup's centre height 0.905 m) and the point before
    the cabinet it is drawn out to are reached with the waist pitched LEAN at standing
    height; the shelf points (over and on the shelf, x 0.99) only from SHELF_HEIGHT; with
    the torso upright at standing height the hand misses the shelf by 4-6 cm."""
    cup = {"grip": (0.965, 0.905), "out": (0.87, 0.935)}
    shelf = {"up": (0.87, 1.225), "in": (0.99, 1.225), "set": (0.99, 1.19)}
    leaning = _misses(PELVIS_Z, cabinet_cups.LEAN, cup)
    raised = _misses(cabinet_cups.SHELF_HEIGHT, cabinet_cups.LEAN, shelf)
    upright = _misses(PELVIS_Z, 0.0, {"in": shelf["in"], "set": shelf["set"]})
    assert max(leaning.values()) < 0.005, leaning
    assert max(raised.values()) < 0.005, raised
    assert min(upright.values()) > 0.03, upright


def test_the_cups_go_to_the_hands_that_keep_the_body_off_the_doors():
    """Seed 620028 (both handles turned the same way), the doors open: each cup taken by
    its own hand would put the robot into a door (the right hand's stance for the middle
    cup: negative clearance), so the assignment picks the option with the most clearance,
    here the left hand for both cups, the one on its side first."""
    kin, qpos = kinematics_at_reset("put_cups", 620028)
    for door in ks.WALL_DOORS:
        joint = kin.model.joint(ks.joint_name(door))
        qpos[joint.qposadr[0]] = joint.range[1]
    expert = cabinet_cups.PutCups("put_cups")
    expert.kin.set_state(qpos)
    middle, side = sorted(cabinet_cups.CUPS, key=lambda cup: expert.kin.body_pos(cup)[1])
    assert expert.door_clearance(middle, "right") < 0.0
    order = expert.assignment()
    assert order == [(side, "left"), (middle, "left")]
    chosen = min(expert.door_clearance(cup, hand) for cup, hand in order)
    split = min(expert.door_clearance(middle, "right"), expert.door_clearance(side, "left"))
    assert chosen > max(split, cabinet_cups.DOOR_MARGIN)
