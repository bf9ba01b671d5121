"""The assembled G1 + Dex1-1 model: joint order, drive parameters, grippers, cameras."""

from __future__ import annotations

import shutil

import mujoco
import numpy as np
import pytest

from bench import assets
from bench.robot import assembly, meshes
from bench.robot import constants as c
from bench.robot.grip_creep import slide
from bench.sim.world import G1World

# Unitree motor order, written out independently of constants.py (DESIGN.md section 3).
UNITREE_ORDER = [
    "left_hip_pitch", "left_hip_roll", "left_hip_yaw", "left_knee", "left_ankle_pitch",
    "left_ankle_roll", "right_hip_pitch", "right_hip_roll", "right_hip_yaw", "right_knee",
    "right_ankle_pitch", "right_ankle_roll", "waist_yaw", "waist_roll", "waist_pitch",
    "left_shoulder_pitch", "left_shoulder_roll", "left_shoulder_yaw", "left_elbow",
    "left_wrist_roll", "left_wrist_pitch", "left_wrist_yaw", "right_shoulder_pitch",
    "right_shoulder_roll", "right_shoulder_yaw", "right_elbow", "right_wrist_roll",
    "right_wrist_pitch", "right_wrist_yaw",
]

KP, KD = c.KP, c.KD


@pytest.fixture(scope="module")
def world():
    world = G1World()
    yield world
    world.close()


def test_joint_order_is_unitree_motor_order(world):
    assert [j.removesuffix("_joint") for j in c.JOINTS] == UNITREE_ORDER
    model_order = [world.model.joint(i).name for i in range(world.model.njnt)
                   if world.model.joint(i).name in c.JOINTS]
    assert model_order == list(c.JOINTS)  # the kinematic tree lists them in motor order too


def test_lower_body_gains_match_the_groot_contract():
    # DESIGN.md: kp (150, 150, 150, 200, 40, 40) per leg, 250 per waist joint;
    # kd (2, 2, 2, 4, 2, 2) per leg, 5 per waist joint.
    assert c.KP[:15].tolist() == [150, 150, 150, 200, 40, 40] * 2 + [250] * 3
    assert c.KD[:15].tolist() == [2, 2, 2, 4, 2, 2] * 2 + [5] * 3
    assert c.KP[15:].tolist() == c.ARM_KP.tolist() * 2


def test_every_joint_has_armature_damping_and_an_effort_limited_motor(world):
    m = world.model
    dof = world.qvel_index
    assert np.allclose(m.dof_armature[dof], c.ARMATURE) and np.all(c.ARMATURE > 1e-3)
    assert np.allclose(m.dof_damping[dof], c.JOINT_DAMPING)
    assert np.allclose(m.actuator_forcerange[world.motor_index][:, 1], c.EFFORT_LIMIT)
    assert set(np.unique(c.EFFORT_LIMIT)) == {5.0, 25.0, 50.0, 88.0, 139.0}


def test_pd_torques_are_clipped_to_the_effort_limits(world):
    world.reset_to_keyframe()
    world.step(c.KEYFRAME_JOINTS + 1.0, KP * 10, KD, np.zeros(2))
    applied = world.data.actuator_force[world.motor_index]
    assert np.all(np.abs(applied) <= c.EFFORT_LIMIT + 1e-9)
    assert np.any(np.isclose(np.abs(applied), c.EFFORT_LIMIT))


def test_gripper_is_one_dof_with_pads_and_a_centred_pinch_site(world):
    world.reset_to_keyframe()
    m, d = world.model, world.data
    for side in c.GRIPPER_SIDES:
        for pad in c.GRIPPER_PADS[side]:
            assert m.geom(pad).contype == 1  # pads collide
    for _ in range(40):
        world.step(c.KEYFRAME_JOINTS, KP, KD, np.array([1.0, 0.0]))
    left, right = world.gripper_state()
    assert left > 0.95 and right < 0.05
    b = d.qpos[m.joint("left_gripper_joint_b").qposadr[0]]
    assert b == pytest.approx(d.qpos[world.gripper_qpos[0]], abs=2e-3)  # fingers mirror
    for side in c.GRIPPER_SIDES:
        pads = [d.geom_xpos[m.geom(p).id] for p in c.GRIPPER_PADS[side]]
        pinch = d.site_xpos[m.site(c.PINCH_SITES[side]).id]
        assert np.linalg.norm(pinch - (pads[0] + pads[1]) / 2) < 0.02


STANDING = np.array([0.0, 0.0, c.KEYFRAME_PELVIS_HEIGHT, 0.0])  # floating-base pose


def settle(world: G1World) -> None:
    """Keyframe on the floating base, then 1 s with open jaws: the arms sag onto their
    servos."""
    world.reset_to_keyframe()
    for _ in range(50):
        world.step(c.KEYFRAME_JOINTS, KP, KD, np.zeros(2), STANDING)


def settled_pinch(side: str) -> tuple[np.ndarray, np.ndarray]:
    """Position and orientation (quaternion) of ``side``'s pinch site after ``settle``."""
    probe = G1World(floating_base=True)
    settle(probe)
    site = probe.model.site(c.PINCH_SITES[side]).id
    quat = np.zeros(4)
    mujoco.mju_mat2Quat(quat, probe.data.site_xmat[site])
    return probe.data.site_xpos[site].copy(), quat


def test_a_closed_gripper_squeezes_a_thin_part_at_the_force_limit():
    """A 12 mm plate edge between the left jaws (in the settled hand's frame): the
    fingers stop on it, and the servo pushes at GRIPPER_FORCE (the Dex1-1 closes under
    force control), not at the few newtons a position target at the closed position
    gave. The mirror equality makes the two fingers one DoF, so each pad squeezes with
    half the servo force."""
    pinch, quat = settled_pinch("left")
    spec = assembly.robot_spec()
    spec.worldbody.add_geom(name="plate_edge", type=mujoco.mjtGeom.mjGEOM_BOX,
                            size=[0.02, 0.006, 0.02], pos=pinch, quat=quat)
    world = G1World(spec, floating_base=True)
    settle(world)
    for _ in range(25):  # 0.5 s
        world.step(c.KEYFRAME_JOINTS, KP, KD, np.array([1.0, 0.0]), STANDING)
    m, d = world.model, world.data
    assert world.gripper_state()[0] == pytest.approx(1 - 0.006 / c.GRIPPER_TRAVEL, abs=0.03)
    assert abs(d.actuator_force[world.gripper_motor[0]]) == pytest.approx(c.GRIPPER_FORCE)
    edge, pads = m.geom("plate_edge").id, {m.geom(p).id for p in c.GRIPPER_PADS["left"]}
    squeeze = []
    for i in range(d.ncon):
        contact = d.contact[i]
        if {contact.geom1, contact.geom2} & pads and edge in (contact.geom1, contact.geom2):
            force = np.zeros(6)
            mujoco.mj_contactForce(m, d, i, force)
            squeeze.append(force[0])
    assert len(squeeze) >= 2 and sum(squeeze) == pytest.approx(c.GRIPPER_FORCE, rel=0.1)


def test_a_block_held_on_the_walking_floating_base_stays_in_the_jaw():
    """The floating base's pelvis is welded to its target, so a held object feels what
    the hand feels. (Setting the pelvis pose and velocity at every substep instead
    kicked a held block against the hand and it slid out at 6 cm/s.) A 0.1 kg, 4 cm
    block squeezed in the right jaw while the base walks 0.5 m/s and turns 0.5 rad/s
    for 1 s slides a few millimetres (the friction cones' own creep), and the pelvis
    stays level within millimetres of its target."""
    spec = assembly.robot_spec()
    block = spec.worldbody.add_body(name="block")
    block.add_freejoint()
    block.add_geom(type=mujoco.mjtGeom.mjGEOM_BOX, size=[0.02] * 3, mass=0.1)
    world = G1World(spec, floating_base=True)
    m, d = world.model, world.data
    world.reset_to_keyframe()
    site = m.site(c.PINCH_SITES["right"]).id
    free = m.joint(m.body("block").jntadr[0]).qposadr[0]
    d.qpos[free:free + 3] = d.site_xpos[site]
    mujoco.mju_mat2Quat(d.qpos[free + 3:free + 7], d.site_xmat[site])
    gravity = m.opt.gravity.copy()
    m.opt.gravity[:] = 0.0  # nothing moves while the jaw closes on the block
    for _ in range(10):
        world.step(c.KEYFRAME_JOINTS, KP, KD, np.array([0.0, 1.0]), STANDING)
    m.opt.gravity[:] = gravity
    for _ in range(25):  # the arm sags onto its servos, the block with it
        world.step(c.KEYFRAME_JOINTS, KP, KD, np.array([0.0, 1.0]), STANDING)

    def in_hand() -> np.ndarray:
        return d.site_xmat[site].reshape(3, 3).T @ (d.body("block").xpos - d.site_xpos[site])

    start, pose = in_hand(), STANDING.copy()
    for _ in range(50):
        pose = pose + 0.02 * np.array([0.5 * np.cos(pose[3]), 0.5 * np.sin(pose[3]), 0.0, 0.5])
        world.step(c.KEYFRAME_JOINTS, KP, KD, np.array([0.0, 1.0]), pose)
    assert np.linalg.norm(in_hand() - start) < 0.005
    assert np.linalg.norm(d.qpos[world.base_qpos:world.base_qpos + 3] - pose[:3]) < 0.003
    assert abs(d.xmat[m.body(c.PELVIS_BODY).id][8] - 1.0) < 1e-4  # level: z axis up


def test_a_part_squeezed_in_the_jaw_barely_creeps():
    """The pads' stiff contacts (priority 1, impedance 0.99): a 0.1 kg box squeezed at
    the force limit, gravity along the fingers, slides under 0.5 mm in a second (the
    mixed default contact let it slide 2.1 mm)."""
    slid = slide("pyramidal", seconds=1)[0]
    assert 0.0 < slid < 0.0005


def test_keyframe_puts_the_feet_on_the_floor(world):
    world.reset_to_keyframe()
    m, d = world.model, world.data
    assert np.allclose(world.joint_positions(), c.KEYFRAME_JOINTS)
    for side in ("left", "right"):
        soles = [m.geom(f"{side}_foot{i}_collision").id for i in range(1, 7)]
        lowest = min(d.geom_xpos[g][2] - m.geom_size[g][0] for g in soles)
        assert abs(lowest) < 0.003  # m: the foot capsules touch the floor


def test_cameras_render_camera_major_chw(world):
    world.reset_to_keyframe()
    images = world.render()
    assert images.shape == (3, 3, 84, 84) and images.dtype == np.uint8
    assert all(images[i].std() > 5 for i in range(3))  # each view shows structure


def test_wrist_cameras_see_their_fingers(world):
    """Paint the fingers pure red: each wrist view must contain red pixels."""
    world.reset_to_keyframe()
    m = world.model
    saved = m.geom_rgba.copy()
    try:
        for side in c.GRIPPER_SIDES:
            for part in ("finger_a_link", "finger_b_link", "pad_a", "pad_b"):
                m.geom_rgba[m.geom(f"{side}_gripper_{part}").id] = [1, 0, 0, 1]
        images = world.render(("right_wrist", "left_wrist"))
    finally:
        m.geom_rgba[:] = saved
    for image in images:
        red = (image[0] > 150) & (image[1] < 60) & (image[2] < 60)
        assert red.mean() > 0.02


def test_decimated_meshes_are_smaller_and_checked(tmp_path, monkeypatch):
    out = meshes.verify_decimated()
    total = sum(len(meshes.read_stl(p)[1]) for p in out.glob("*.STL"))
    original = sum(len(meshes.read_stl(p)[1])
                   for p in (assets.verify_source("mjlab") / "assets").glob("*.STL"))
    assert total < 45_000 < original
    copy = tmp_path / out.name
    shutil.copytree(out, copy)
    monkeypatch.setattr(meshes, "decimated_dir", lambda: copy)
    victim = copy / "pelvis.STL"
    victim.write_bytes(victim.read_bytes()[:-4])
    with pytest.raises(assets.AssetHashError, match=r"pelvis\.STL"):
        meshes.verify_decimated()


def test_stl_round_trip(tmp_path):
    vertices = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], np.float32)
    faces = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]])
    meshes.write_stl(tmp_path / "t.STL", vertices, faces)
    v, f = meshes.read_stl(tmp_path / "t.STL")
    assert np.allclose(np.sort(v[f].reshape(-1, 3), axis=0),
                       np.sort(vertices[faces].reshape(-1, 3), axis=0))
    spec = mujoco.MjSpec()
    spec.add_mesh(name="t", file=str(tmp_path / "t.STL"))
    assert spec.compile().nmeshface == 4


def test_robot_spec_compiles_with_the_original_meshes_too():
    original = assets.verify_source("mjlab") / "assets"
    model = assembly.robot_spec(mesh_dir=str(original)).compile()
    assert model.nmeshface > 300_000
