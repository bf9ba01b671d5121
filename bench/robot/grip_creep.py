"""How fast a squeezed object slides out of the Dex1-1 jaw, with nothing else moving.

The gripper asset (assets/dex1_1_gripper.xml) alone, fixed in the world, pointing
"down" (gravity along its fingers); a 0.1 kg, 4 cm box between the pads; the finger
servo as bench drives it (GRIPPER_KP, GRIPPER_FORCE, a full close aiming
GRIPPER_SQUEEZE past closed). The jaw closes without gravity, then gravity comes on
and the box's slide along the fingers is measured each second, for MuJoCo's default
pyramidal friction cones and for the usual cures (``scripts/grip_creep.py`` prints
them; docs/experts.md has the figures).
"""

from __future__ import annotations

import mujoco

from bench.paths import asset_file
from bench.robot import constants as c

PINCH_X = 0.165  # m, the pinch site in the asset's frame (gripper_base 0.045 + 0.12)
BOX_HALF, BOX_MASS = 0.02, 0.1  # m, kg
SECONDS = 3


def build(variant: str) -> mujoco.MjModel:
    """The gripper, the box and a finger servo; ``variant`` picks the contact model."""
    spec = mujoco.MjSpec.from_file(str(asset_file("dex1_1_gripper.xml")))
    spec.option.timestep = 0.001  # as bench's scenes
    if variant == "elliptic":
        spec.option.cone = mujoco.mjtCone.mjCONE_ELLIPTIC
        spec.option.impratio = 10
    elif variant == "noslip":
        spec.option.noslip_iterations = 10
    elif variant != "pyramidal":
        raise ValueError(f"unknown variant {variant!r}: pyramidal, elliptic or noslip")
    box = spec.worldbody.add_body(name="box", pos=[PINCH_X, 0, 0])
    box.add_freejoint()
    box.add_geom(type=mujoco.mjtGeom.mjGEOM_BOX, size=[BOX_HALF] * 3, mass=BOX_MASS)
    servo = spec.add_actuator(name="grip", target="gripper_joint",
                              trntype=mujoco.mjtTrn.mjTRN_JOINT)
    servo.set_to_position(kp=c.GRIPPER_KP, kv=c.GRIPPER_KD)
    servo.forcelimited, servo.forcerange = True, [-c.GRIPPER_FORCE, c.GRIPPER_FORCE]
    return spec.compile()


def slide(variant: str, seconds: int = SECONDS) -> list[float]:
    """The box's slide along the fingers (m) after each second of gravity."""
    model = build(variant)
    data = mujoco.MjData(model)
    data.ctrl[0] = c.GRIPPER_TRAVEL + c.GRIPPER_SQUEEZE
    model.opt.gravity[:] = 0.0
    mujoco.mj_step(model, data, nstep=500)  # the jaw closes on the box
    model.opt.gravity[:] = [9.81, 0.0, 0.0]  # along the fingers, out of the jaw
    start = float(data.body("box").xpos[0])
    steps = round(1.0 / model.opt.timestep)
    out = []
    for _ in range(seconds):
        mujoco.mj_step(model, data, nstep=steps)
        out.append(float(data.body("box").xpos[0]) - start)
    return out
