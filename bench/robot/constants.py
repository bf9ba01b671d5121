"""Names and numbers of the Unitree G1 (29 DoF) with Dex1-1 grippers, in one place.

Joint order is the Unitree motor order (motor index 0-28, DESIGN.md section 3).
Angles are radians, torques N m, gains N m/rad and N m s/rad, lengths metres.
Motor data (rotor inertias, gear ratios, torque limits) are Unitree's figures as
published in mjlab 1.6.0's G1 description; the arm PD gains are ours.
"""

from __future__ import annotations

import numpy as np

LEG_JOINTS_PER_SIDE = ("hip_pitch", "hip_roll", "hip_yaw", "knee", "ankle_pitch", "ankle_roll")
ARM_JOINTS_PER_SIDE = ("shoulder_pitch", "shoulder_roll", "shoulder_yaw", "elbow",
                       "wrist_roll", "wrist_pitch", "wrist_yaw")
WAIST_JOINTS = ("waist_yaw_joint", "waist_roll_joint", "waist_pitch_joint")

LEFT_LEG = tuple(f"left_{j}_joint" for j in LEG_JOINTS_PER_SIDE)
RIGHT_LEG = tuple(f"right_{j}_joint" for j in LEG_JOINTS_PER_SIDE)
LEFT_ARM = tuple(f"left_{j}_joint" for j in ARM_JOINTS_PER_SIDE)
RIGHT_ARM = tuple(f"right_{j}_joint" for j in ARM_JOINTS_PER_SIDE)

# Unitree motor index 0-28.
JOINTS: tuple[str, ...] = LEFT_LEG + RIGHT_LEG + WAIST_JOINTS + LEFT_ARM + RIGHT_ARM
LOWER_BODY: tuple[str, ...] = LEFT_LEG + RIGHT_LEG + WAIST_JOINTS  # the WBC's 15 joints
ARMS: tuple[str, ...] = LEFT_ARM + RIGHT_ARM
NUM_JOINTS = len(JOINTS)  # 29

# Dex1-1 grippers: one slide DoF per finger pair, commanded 0 = open .. 1 = closed.
GRIPPER_SIDES = ("left", "right")
GRIPPER_JOINTS = tuple(f"{side}_gripper_joint" for side in GRIPPER_SIDES)
GRIPPER_TRAVEL = 0.038  # m, each finger moves this far from open to closed (pads touch)
GRIPPER_FORCE = 40.0  # N, finger servo force limit; the mirrored fingers squeeze with half each
GRIPPER_KP = 4000.0  # N/m, finger position gain
GRIPPER_KD = 20.0  # N s/m
# A full close aims this far past the closed position, so the finger servo saturates at
# GRIPPER_FORCE on anything it holds, however thin: the Dex1-1 closes under force
# control. (Aiming at the closed position itself squeezed a 12 mm plate with 5 N.)
GRIPPER_SQUEEZE = GRIPPER_FORCE / GRIPPER_KP  # m
GRIPPER_PADS = {side: (f"{side}_gripper_pad_a", f"{side}_gripper_pad_b")
                for side in GRIPPER_SIDES}
PINCH_SITES = {side: f"{side}_pinch" for side in GRIPPER_SIDES}
WRIST_BODIES = {side: f"{side}_wrist_yaw_link" for side in GRIPPER_SIDES}

PELVIS_BODY = "pelvis"
TORSO_BODY = "torso_link"
FREE_JOINT = "floating_base_joint"
IMU_SITE = "imu_in_pelvis"

# Cameras, in rgb_obs order (camera-major).
CAMERAS = ("head", "right_wrist", "left_wrist")


# Joint position limits (rad) in motor order, as in mjlab 1.6.0's g1.xml (a test checks
# them against the compiled model).
_LEG_LIMITS = {
    "left": [(-2.5307, 2.8798), (-0.5236, 2.9671), (-2.7576, 2.7576), (-0.087267, 2.8798),
             (-0.87267, 0.5236), (-0.2618, 0.2618)],
    "right": [(-2.5307, 2.8798), (-2.9671, 0.5236), (-2.7576, 2.7576), (-0.087267, 2.8798),
              (-0.87267, 0.5236), (-0.2618, 0.2618)],
}
_WAIST_LIMITS = [(-2.618, 2.618), (-0.52, 0.52), (-0.52, 0.52)]
_ARM_LIMITS = {
    "left": [(-3.0892, 2.6704), (-1.5882, 2.2515), (-2.618, 2.618), (-1.0472, 2.0944),
             (-1.97222, 1.97222), (-1.61443, 1.61443), (-1.61443, 1.61443)],
    "right": [(-3.0892, 2.6704), (-2.2515, 1.5882), (-2.618, 2.618), (-1.0472, 2.0944),
              (-1.97222, 1.97222), (-1.61443, 1.61443), (-1.61443, 1.61443)],
}
JOINT_LIMITS = np.array(_LEG_LIMITS["left"] + _LEG_LIMITS["right"] + _WAIST_LIMITS
                        + _ARM_LIMITS["left"] + _ARM_LIMITS["right"])  # rad, (29, 2)
JOINT_VELOCITY_LIMIT = 40.0  # rad/s, bound used to normalize joint velocities


def _reflected_inertia(rotor: tuple[float, float, float],
                       gears: tuple[float, float, float]) -> float:
    """Armature (kg m^2) of a two-stage planetary drive seen at the output."""
    return rotor[0] * (gears[1] * gears[2]) ** 2 + rotor[1] * gears[2] ** 2 + rotor[2]


# Motor families: (armature kg m^2, torque limit N m).
_M5020 = (_reflected_inertia((0.139e-4, 0.017e-4, 0.169e-4), (1, 1 + 46 / 18, 1 + 56 / 16)), 25.0)
_M7520_14 = (_reflected_inertia((0.489e-4, 0.098e-4, 0.533e-4), (1, 4.5, 1 + 48 / 22)), 88.0)
_M7520_22 = (_reflected_inertia((0.489e-4, 0.109e-4, 0.738e-4), (1, 4.5, 5)), 139.0)
_M4010 = (_reflected_inertia((0.068e-4, 0.0, 0.0), (1, 5, 5)), 5.0)
# Ankles and waist roll/pitch are linkages driven by two 5020 motors.
_DOUBLE_5020 = (2 * _M5020[0], 2 * _M5020[1])

_MOTOR_OF = {
    "hip_pitch": _M7520_14, "hip_roll": _M7520_22, "hip_yaw": _M7520_14, "knee": _M7520_22,
    "ankle_pitch": _DOUBLE_5020, "ankle_roll": _DOUBLE_5020,
    "waist_yaw": _M7520_14, "waist_roll": _DOUBLE_5020, "waist_pitch": _DOUBLE_5020,
    "shoulder_pitch": _M5020, "shoulder_roll": _M5020, "shoulder_yaw": _M5020,
    "elbow": _M5020, "wrist_roll": _M5020, "wrist_pitch": _M4010, "wrist_yaw": _M4010,
}


def _family(joint: str) -> str:
    return joint.removeprefix("left_").removeprefix("right_").removesuffix("_joint")


ARMATURE = np.array([_MOTOR_OF[_family(j)][0] for j in JOINTS])  # kg m^2, motor order
EFFORT_LIMIT = np.array([_MOTOR_OF[_family(j)][1] for j in JOINTS])  # N m, motor order
JOINT_DAMPING = 0.1  # N m s/rad, passive viscous damping on every robot joint

# Leg and waist PD gains of the GR00T-WBC contract (DESIGN.md section 3), lower-body order.
LOWER_BODY_KP = np.array([150.0, 150.0, 150.0, 200.0, 40.0, 40.0] * 2 + [250.0] * 3)  # N m/rad
LOWER_BODY_KD = np.array([2.0, 2.0, 2.0, 4.0, 2.0, 2.0] * 2 + [5.0] * 3)  # N m s/rad

# Arm PD gains, used when the manipulation policy's arm targets go straight to the
# arm joints (shoulder pitch/roll/yaw, elbow, wrist roll/pitch/yaw).
ARM_KP = np.array([100.0, 100.0, 50.0, 50.0, 20.0, 20.0, 20.0])  # N m/rad
ARM_KD = np.array([2.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0])  # N m s/rad

# Keyframe stance: pelvis height (m) and joint angles (rad) by name; others are 0.
# Legs: mjlab's home stance, which is also GR00T-WBC's default leg pose. Arms:
# holosoma's nominal arm pose (elbow 0.6 rad): with mjlab's bent elbows (1.28 rad) the
# embedded WBC walked 2.9 m instead of 4.0 m in 10 s at 0.5 m/s and yawed 69 degrees.
KEYFRAME_PELVIS_HEIGHT = 0.783675  # m, feet flat on the floor with these angles
_KEYFRAME_ANGLES = {
    "hip_pitch": -0.1, "knee": 0.3, "ankle_pitch": -0.2,
    "shoulder_pitch": 0.2, "elbow": 0.6,
}
_KEYFRAME_SIDED = {"left_shoulder_roll_joint": 0.2, "right_shoulder_roll_joint": -0.2}
KEYFRAME_JOINTS = np.array([
    _KEYFRAME_SIDED.get(j, _KEYFRAME_ANGLES.get(_family(j), 0.0)) for j in JOINTS
])  # rad, motor order


# What the standing controller (bench.wbc.stance) reaches on this model, feet flat:
# pelvis height above the soles (m) and torso angles (rad) about the feet's heading.
# Measured by scripts/stance_figures.py tracking (docs/wbc.md).
STANCE_HEIGHT_RANGE = (0.45, 0.79)  # m
STANCE_PITCH_RANGE = (-0.2, 0.8)  # rad, + leans forward
STANCE_ROLL_RANGE = (-0.3, 0.3)  # rad
STANCE_YAW_RANGE = (-0.6, 0.6)  # rad, torso heading relative to the feet

# PD gains for all 29 joints in motor order: the WBC's lower body plus our arms.
KP = np.concatenate([LOWER_BODY_KP, ARM_KP, ARM_KP])  # N m/rad
KD = np.concatenate([LOWER_BODY_KD, ARM_KD, ARM_KD])  # N m s/rad


def joint_index(name: str) -> int:
    """Unitree motor index of a joint name."""
    return JOINTS.index(name)
