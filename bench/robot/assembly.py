"""Assemble the G1 + Dex1-1 MuJoCo model from the fetched mjlab G1 description.

The mjlab MJCF has no actuators, armature or damping; without armature the robot
falls within half a second. This module adds, on an MjSpec:

* armature, passive damping and torque limits per joint (constants.py);
* one PD servo per joint (MuJoCo affine-bias actuator): torques kp (target - q) - kd
  qdot clipped to the joint's torque limit at the physics rate, gains set at run time;
* our Dex1-1 gripper (assets/dex1_1_gripper.xml) on each wrist, replacing the
  rubber hands, with a force-limited PD servo on its single DoF;
* the head and wrist cameras, a floor, and the keyframe stance.
"""

from __future__ import annotations

import mujoco
import numpy as np

from bench import assets
from bench.paths import asset_file
from bench.robot import constants as c
from bench.robot.meshes import verify_decimated

HEAD_CAMERA_POS = (0.13, 0.0, 0.46)  # m, in torso_link, just in front of the head
HEAD_CAMERA_PITCH = 1.2  # rad below horizontal


def _camera_xyaxes(pitch: float) -> list[float]:
    """xyaxes of a camera looking along +x, tilted down by ``pitch``."""
    return [0.0, -1.0, 0.0, float(np.sin(pitch)), 0.0, float(np.cos(pitch))]


def _strip_hand(spec: mujoco.MjSpec, side: str) -> None:
    wrist = spec.body(c.WRIST_BODIES[side])
    for geom in list(wrist.geoms):
        if geom.meshname == f"{side}_rubber_hand" or geom.name == f"{side}_hand_collision":
            spec.delete(geom)
    palm = spec.site(f"{side}_palm")
    if palm is not None:
        spec.delete(palm)


def _attach_gripper(spec: mujoco.MjSpec, side: str) -> None:
    gripper = mujoco.MjSpec.from_file(str(asset_file("dex1_1_gripper.xml")))
    frame = spec.body(c.WRIST_BODIES[side]).add_frame()
    spec.attach(gripper, frame=frame, prefix=f"{side}_")
    spec.camera(f"{side}_wrist_camera").name = f"{side}_wrist"


def _add_servo(spec: mujoco.MjSpec, joint: str, force_limit: float, kp: float = 0.0,
               kd: float = 0.0) -> None:
    """A PD servo on ``joint``: force = kp (ctrl - q) - kd qdot, clipped to +-force_limit,
    evaluated by MuJoCo at every physics step. The control is the position target."""
    servo = spec.add_actuator(name=joint.removesuffix("_joint"), target=joint,
                              trntype=mujoco.mjtTrn.mjTRN_JOINT)
    servo.gaintype = mujoco.mjtGain.mjGAIN_FIXED
    servo.biastype = mujoco.mjtBias.mjBIAS_AFFINE
    servo.gainprm[0] = kp
    servo.biasprm[:3] = [0.0, -kp, -kd]
    servo.forcerange = [-force_limit, force_limit]
    servo.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
    servo.ctrllimited = mujoco.mjtLimited.mjLIMITED_FALSE


def _add_motors(spec: mujoco.MjSpec) -> None:
    for index, joint in enumerate(c.JOINTS):
        j = spec.joint(joint)
        j.armature = float(c.ARMATURE[index])
        j.damping = [c.JOINT_DAMPING, 0.0, 0.0]  # linear term only
        j.actfrcrange = [-float(c.EFFORT_LIMIT[index]), float(c.EFFORT_LIMIT[index])]
        j.actfrclimited = mujoco.mjtLimited.mjLIMITED_TRUE
        _add_servo(spec, joint, float(c.EFFORT_LIMIT[index]))  # gains set per control step
    for joint in c.GRIPPER_JOINTS:
        _add_servo(spec, joint, c.GRIPPER_FORCE, c.GRIPPER_KP, c.GRIPPER_KD)


def _add_world(spec: mujoco.MjSpec) -> None:
    spec.visual.headlight.ambient = [0.4, 0.4, 0.4]
    spec.visual.headlight.diffuse = [0.5, 0.5, 0.5]
    spec.visual.quality.shadowsize = 0
    # Each extra light costs about 3 ms per three-camera frame on Mesa's CPU rasteriser;
    # the headlight and mjlab's light over the pelvis are enough.
    checker = spec.add_texture(name="floor_checker", type=mujoco.mjtTexture.mjTEXTURE_2D,
                               builtin=mujoco.mjtBuiltin.mjBUILTIN_CHECKER, width=256,
                               height=256, rgb1=[0.45, 0.47, 0.5], rgb2=[0.38, 0.4, 0.43])
    material = spec.add_material(name="floor", texrepeat=[8, 8], reflectance=0.0)
    material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = checker.name
    spec.worldbody.add_geom(name="floor", type=mujoco.mjtGeom.mjGEOM_PLANE,
                            size=[0, 0, 0.05], material="floor")
    torso = spec.body(c.TORSO_BODY)
    torso.add_camera(name="head", pos=list(HEAD_CAMERA_POS),
                     xyaxes=_camera_xyaxes(HEAD_CAMERA_PITCH), fovy=80)


def keyframe_qpos(model: mujoco.MjModel) -> np.ndarray:
    """The keyframe stance as a full qpos of ``model`` (objects keep their defaults)."""
    qpos = model.qpos0.copy()
    free = model.joint(c.FREE_JOINT).qposadr[0]
    qpos[free:free + 7] = [0, 0, c.KEYFRAME_PELVIS_HEIGHT, 1, 0, 0, 0]
    for name, angle in zip(c.JOINTS, c.KEYFRAME_JOINTS, strict=True):
        qpos[model.joint(name).qposadr[0]] = angle
    return qpos


def robot_spec(mesh_dir: str | None = None) -> mujoco.MjSpec:
    """MjSpec of the G1 with grippers, cameras, motors and a floor.

    ``mesh_dir`` selects the visual meshes: the decimated set by default, or e.g. the
    original ``<cache>/mjlab-1.6.0/assets`` for pictures at full detail.
    """
    g1_xml = assets.asset_path("mjlab", "g1.xml")
    spec = mujoco.MjSpec.from_file(str(g1_xml))
    spec.meshdir = mesh_dir or str(verify_decimated())
    spec.option.timestep = 0.001  # s, physics substep
    spec.option.integrator = mujoco.mjtIntegrator.mjINT_IMPLICITFAST
    spec.option.jacobian = mujoco.mjtJacobian.mjJAC_SPARSE  # about 8 % faster here than auto
    for side in c.GRIPPER_SIDES:
        _strip_hand(spec, side)
        _attach_gripper(spec, side)
    _add_motors(spec)
    _add_world(spec)
    return spec
