"""LowCmd_ assembly and LowState_ reading for the 29-DoF G1, and Dex1-1 gripper messages.

The body messages are handled as their C-struct records (bench.hardware.wire): that is
what the CRC covers, and what goes on the wire without per-motor Python objects.

Protocol (unitree_sdk2's G1 low-level examples): ``mode_machine`` is copied from the
robot's LowState_ (5 on the 29-DoF G1), every used motor gets mode 1 (enabled) with a
position target, zero velocity and feed-forward torque, and its kp/kd; the CRC goes
last. Motor slots 29-34 stay disabled (mode 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bench.hardware.crc import crc32_words
from bench.hardware.unitree_idl import (
    GoMotorCmd,
    GoMotorCmds,
    GoMotorState,
    GoMotorStates,
    HgLowCmd,
)
from bench.hardware.wire import LOWCMD_DTYPE
from bench.robot import constants as c

MOTOR_ENABLED = 1  # unitree_hg motor mode: enabled (PD + feed-forward)
G1_29DOF_MODE_MACHINE = 5  # what the 29-DoF G1 reports in LowState_.mode_machine
# Damping: no stiffness, viscous damping only, as unitree_rl_gym's deploy code
# (create_damping_cmd) commands it; the robot sinks slowly instead of dropping.
DAMPING_KD = 8.0  # N m s/rad, every body motor

# Dex1-1: one M4010 motor per gripper; xr_teleoperate maps closed..open to 0..5.4 rad
# and drives it with kp 5, kd 0.05. The graph's gripper command is 0 = open .. 1 = closed.
DEX1_OPEN_Q = 5.4  # rad, motor position with the jaws fully open
DEX1_KP = 5.0  # N m/rad
DEX1_KD = 0.05  # N m s/rad


def lowcmd_record(mode_machine: int, q: np.ndarray, kp: np.ndarray, kd: np.ndarray,
                  tau: np.ndarray | None = None) -> np.ndarray:
    """A LowCmd_ (as its C-struct record) with position targets, gains and feedforward
    torques (zero unless given) for the 29 body motors, CRC set. ``q``, ``kp``, ``kd``,
    ``tau`` are in Unitree motor order (rad, N m/rad, N m s/rad, N m)."""
    record = np.zeros((), LOWCMD_DTYPE)
    record["mode_machine"] = mode_machine
    motors = record["motor_cmd"]
    n = c.NUM_JOINTS
    motors["mode"][:n] = MOTOR_ENABLED
    motors["q"][:n], motors["kp"][:n], motors["kd"][:n] = q, kp, kd
    if tau is not None:
        motors["tau"][:n] = tau
    record["crc"] = crc32_words(record.tobytes())
    return record


def lowcmd(mode_machine: int, q: np.ndarray, kp: np.ndarray, kd: np.ndarray) -> HgLowCmd:
    """lowcmd_record as a message object (it holds the float32 values the CRC covers)."""
    return HgLowCmd.from_record(lowcmd_record(mode_machine, q, kp, kd))


def damping_record(mode_machine: int) -> np.ndarray:
    """The damping command: every body motor enabled with kp 0 and kd DAMPING_KD."""
    zeros = np.zeros(c.NUM_JOINTS)
    return lowcmd_record(mode_machine, zeros, zeros, np.full(c.NUM_JOINTS, DAMPING_KD))


def crc_ok(record: np.ndarray) -> bool:
    """True when a LowCmd_ or LowState_ record carries the CRC of its contents."""
    return crc32_words(record.tobytes()) == int(record["crc"])


def command_arrays(record: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(q, kp, kd) of the 29 body motors of a LowCmd_ record; a disabled motor (mode 0)
    has zero gains."""
    motors = record["motor_cmd"][:c.NUM_JOINTS]
    enabled = motors["mode"] == MOTOR_ENABLED
    return (motors["q"].astype(float), motors["kp"] * enabled.astype(float),
            motors["kd"] * enabled.astype(float))


def command_tau(record: np.ndarray) -> np.ndarray:
    """The feedforward torques (N m) of the 29 body motors of a LowCmd_ record; zero for
    a disabled motor."""
    motors = record["motor_cmd"][:c.NUM_JOINTS]
    return motors["tau"] * (motors["mode"] == MOTOR_ENABLED).astype(float)


def is_damping(record: np.ndarray) -> bool:
    """True when a LowCmd_ record commands no stiffness on any body motor."""
    return bool(np.all(command_arrays(record)[1] == 0.0))


@dataclass
class BodyState:
    """What a LowState_ says about the body, in Unitree motor order."""

    q: np.ndarray  # (29,) rad
    dq: np.ndarray  # (29,) rad/s
    quat: np.ndarray  # (4,) pelvis IMU orientation, w x y z
    gyro: np.ndarray  # (3,) rad/s, body frame
    accel: np.ndarray  # (3,) m/s^2, body frame
    tick: int  # ms, the robot's clock
    mode_machine: int


def read_lowstate(record: np.ndarray) -> BodyState:
    """The body's joint and IMU state from a LowState_ record."""
    motors = record["motor_state"][:c.NUM_JOINTS]
    imu = record["imu_state"]
    return BodyState(q=motors["q"].astype(float), dq=motors["dq"].astype(float),
                     quat=imu["quaternion"].astype(float), gyro=imu["gyroscope"].astype(float),
                     accel=imu["accelerometer"].astype(float), tick=int(record["tick"]),
                     mode_machine=int(record["mode_machine"]))


def gripper_cmd(closure: float) -> GoMotorCmds:
    """A Dex1-1 command for closure 0 (open) .. 1 (closed), clamped to that range."""
    q = (1.0 - float(np.clip(closure, 0.0, 1.0))) * DEX1_OPEN_Q
    return GoMotorCmds(cmds=[GoMotorCmd(mode=MOTOR_ENABLED, q=q, kp=DEX1_KP, kd=DEX1_KD)])


def gripper_closure(states: GoMotorStates) -> float:
    """Closure 0 (open) .. 1 (closed) from a Dex1-1 state."""
    return float(np.clip(1.0 - states.states[0].q / DEX1_OPEN_Q, 0.0, 1.0))


def gripper_state(closure: float) -> GoMotorStates:
    """A Dex1-1 state message for closure 0 (open) .. 1 (closed)."""
    return GoMotorStates(states=[GoMotorState(mode=MOTOR_ENABLED,
                                              q=(1.0 - closure) * DEX1_OPEN_Q)])
