"""The unitree_sdk2 DDS types the G1 speaks, and its topic names.

Written here from the public IDL of unitree_sdk2 (``unitree_hg`` for the 29-DoF body,
``unitree_go`` for the Dex1-1 grippers): the same type names, members, order and
extensibility (``@final``), so a CycloneDDS peer using Unitree's own generated types
(the robot, unitree_sdk2py, unitree_mujoco) reads and writes them unchanged. A test
exchanges samples with unitree_sdk2py's classes over DDS to keep this honest.

Why not import unitree_sdk2py's types: the PyPI wheel ``unitree-sdk2==1.0.1`` fails on
``import unitree_sdk2py`` (its ``__init__`` imports a ``b2`` package the wheel lacks),
ships no CRC library, and pins ``cyclonedds==0.10.2``, which has no wheel for
Python 3.11 (docs/hardware.md).
"""

# No "from __future__ import annotations": cyclonedds resolves these annotations at run time.
from dataclasses import dataclass, field
from typing import Any

import cyclonedds.idl as idl
import cyclonedds.idl.annotations as annotate
import cyclonedds.idl.types as types
import numpy as np

from bench.hardware.wire import (
    IMU_DTYPE,
    LOWCMD_CODEC,
    LOWCMD_DTYPE,
    LOWSTATE_CODEC,
    LOWSTATE_DTYPE,
    MOTOR_CMD_DTYPE,
    MOTOR_STATE_DTYPE,
    NUM_MOTORS,
)

LOWCMD_TOPIC = "rt/lowcmd"
LOWSTATE_TOPIC = "rt/lowstate"
DEX1_CMD_TOPICS = {side: f"rt/dex1/{side}/cmd" for side in ("left", "right")}
DEX1_STATE_TOPICS = {side: f"rt/dex1/{side}/state" for side in ("left", "right")}


# ----- unitree_hg: the body -----------------------------------------------------------

@dataclass
@annotate.final
@annotate.autoid("sequential")
class HgMotorCmd(idl.IdlStruct, typename="unitree_hg.msg.dds_.MotorCmd_"):
    """One motor's command: mode (1 = enabled), q rad, dq rad/s, tau N m, kp, kd."""

    mode: types.uint8 = 0
    q: types.float32 = 0.0
    dq: types.float32 = 0.0
    tau: types.float32 = 0.0
    kp: types.float32 = 0.0
    kd: types.float32 = 0.0
    reserve: types.uint32 = 0


@dataclass
@annotate.final
@annotate.autoid("sequential")
class HgLowCmd(idl.IdlStruct, typename="unitree_hg.msg.dds_.LowCmd_"):
    """``rt/lowcmd``: every motor's command, the robot's mode_machine, and the CRC."""

    mode_pr: types.uint8 = 0
    mode_machine: types.uint8 = 0
    motor_cmd: types.array[HgMotorCmd, NUM_MOTORS] = field(
        default_factory=lambda: [HgMotorCmd() for _ in range(NUM_MOTORS)])
    reserve: types.array[types.uint32, 4] = field(default_factory=lambda: [0] * 4)
    crc: types.uint32 = 0

    def to_record(self) -> np.ndarray:
        """This message as its C struct (a LOWCMD_DTYPE record)."""
        record = np.zeros((), LOWCMD_DTYPE)
        record["mode_pr"], record["mode_machine"] = self.mode_pr, self.mode_machine
        motors = record["motor_cmd"]
        for name in MOTOR_CMD_DTYPE.names or ():
            motors[name] = [getattr(m, name) for m in self.motor_cmd]
        record["reserve"], record["crc"] = self.reserve, self.crc
        return record

    @classmethod
    def from_record(cls, record: np.ndarray) -> "HgLowCmd":
        """The message a LOWCMD_DTYPE record holds."""
        motors = record["motor_cmd"]
        columns = [motors[name].tolist() for name in MOTOR_CMD_DTYPE.names or ()]
        return cls(mode_pr=int(record["mode_pr"]), mode_machine=int(record["mode_machine"]),
                   motor_cmd=[HgMotorCmd(*values) for values in zip(*columns, strict=True)],
                   reserve=record["reserve"].tolist(), crc=int(record["crc"]))

    def serialize(self, buffer: Any = None, endianness: Any = None,
                  use_version_2: bool | None = None) -> bytes:
        """CDR bytes; XCDR1 little-endian (what DDS sends) through the C layout, fast."""
        if buffer is not None or endianness is not None or use_version_2:
            return super().serialize(buffer, endianness, use_version_2)
        return LOWCMD_CODEC.encode(self.to_record())

    @classmethod
    def deserialize(cls, data: bytes, has_header: bool = True,
                    use_version_2: bool | None = None) -> "HgLowCmd":
        """The message in a CDR payload; XCDR1 little-endian through the C layout, fast."""
        if not has_header or isinstance(data, idl.Buffer) or data[1] != 1:
            return super().deserialize(data, has_header, use_version_2)
        return cls.from_record(LOWCMD_CODEC.decode(data))


@dataclass
@annotate.final
@annotate.autoid("sequential")
class HgImuState(idl.IdlStruct, typename="unitree_hg.msg.dds_.IMUState_"):
    """The pelvis IMU: quaternion w x y z, gyroscope rad/s, accelerometer m/s^2, rpy rad."""

    quaternion: types.array[types.float32, 4] = field(default_factory=lambda: [1.0, 0, 0, 0])
    gyroscope: types.array[types.float32, 3] = field(default_factory=lambda: [0.0] * 3)
    accelerometer: types.array[types.float32, 3] = field(default_factory=lambda: [0.0] * 3)
    rpy: types.array[types.float32, 3] = field(default_factory=lambda: [0.0] * 3)
    temperature: types.int16 = 0


@dataclass
@annotate.final
@annotate.autoid("sequential")
class HgMotorState(idl.IdlStruct, typename="unitree_hg.msg.dds_.MotorState_"):
    """One motor's state: q rad, dq rad/s, ddq rad/s^2, estimated torque N m, ..."""

    mode: types.uint8 = 0
    q: types.float32 = 0.0
    dq: types.float32 = 0.0
    ddq: types.float32 = 0.0
    tau_est: types.float32 = 0.0
    temperature: types.array[types.int16, 2] = field(default_factory=lambda: [0, 0])
    vol: types.float32 = 0.0
    sensor: types.array[types.uint32, 2] = field(default_factory=lambda: [0, 0])
    motorstate: types.uint32 = 0
    reserve: types.array[types.uint32, 4] = field(default_factory=lambda: [0] * 4)


@dataclass
@annotate.final
@annotate.autoid("sequential")
class HgLowState(idl.IdlStruct, typename="unitree_hg.msg.dds_.LowState_"):
    """``rt/lowstate``: IMU, every motor's state, tick (ms), mode_machine, CRC."""

    version: types.array[types.uint32, 2] = field(default_factory=lambda: [0, 0])
    mode_pr: types.uint8 = 0
    mode_machine: types.uint8 = 0
    tick: types.uint32 = 0
    imu_state: HgImuState = field(default_factory=HgImuState)
    motor_state: types.array[HgMotorState, NUM_MOTORS] = field(
        default_factory=lambda: [HgMotorState() for _ in range(NUM_MOTORS)])
    wireless_remote: types.array[types.uint8, 40] = field(default_factory=lambda: [0] * 40)
    reserve: types.array[types.uint32, 4] = field(default_factory=lambda: [0] * 4)
    crc: types.uint32 = 0

    def to_record(self) -> np.ndarray:
        """This message as its C struct (a LOWSTATE_DTYPE record)."""
        record = np.zeros((), LOWSTATE_DTYPE)
        for name in ("version", "mode_pr", "mode_machine", "tick", "wireless_remote",
                     "reserve", "crc"):
            record[name] = getattr(self, name)
        for name in IMU_DTYPE.names or ():
            record["imu_state"][name] = getattr(self.imu_state, name)
        motors = record["motor_state"]
        for name in MOTOR_STATE_DTYPE.names or ():
            motors[name] = [getattr(m, name) for m in self.motor_state]
        return record

    @classmethod
    def from_record(cls, record: np.ndarray) -> "HgLowState":
        """The message a LOWSTATE_DTYPE record holds."""
        motors = record["motor_state"]
        columns = [motors[name].tolist() for name in MOTOR_STATE_DTYPE.names or ()]
        imu = record["imu_state"]
        return cls(
            version=record["version"].tolist(), mode_pr=int(record["mode_pr"]),
            mode_machine=int(record["mode_machine"]), tick=int(record["tick"]),
            imu_state=HgImuState(*(imu[name].tolist() for name in IMU_DTYPE.names or ())),
            motor_state=[HgMotorState(*values) for values in zip(*columns, strict=True)],
            wireless_remote=record["wireless_remote"].tolist(),
            reserve=record["reserve"].tolist(), crc=int(record["crc"]))

    def serialize(self, buffer: Any = None, endianness: Any = None,
                  use_version_2: bool | None = None) -> bytes:
        """CDR bytes; XCDR1 little-endian (what DDS sends) through the C layout, fast."""
        if buffer is not None or endianness is not None or use_version_2:
            return super().serialize(buffer, endianness, use_version_2)
        return LOWSTATE_CODEC.encode(self.to_record())

    @classmethod
    def deserialize(cls, data: bytes, has_header: bool = True,
                    use_version_2: bool | None = None) -> "HgLowState":
        """The message in a CDR payload; XCDR1 little-endian through the C layout, fast."""
        if not has_header or isinstance(data, idl.Buffer) or data[1] != 1:
            return super().deserialize(data, has_header, use_version_2)
        return cls.from_record(LOWSTATE_CODEC.decode(data))


# ----- unitree_go: the Dex1-1 grippers (one motor each) ---------------------------------

@dataclass
@annotate.final
@annotate.autoid("sequential")
class GoMotorCmd(idl.IdlStruct, typename="unitree_go.msg.dds_.MotorCmd_"):
    """One gripper motor's command."""

    mode: types.uint8 = 0
    q: types.float32 = 0.0
    dq: types.float32 = 0.0
    tau: types.float32 = 0.0
    kp: types.float32 = 0.0
    kd: types.float32 = 0.0
    reserve: types.array[types.uint32, 3] = field(default_factory=lambda: [0] * 3)


@dataclass
@annotate.final
@annotate.autoid("sequential")
class GoMotorCmds(idl.IdlStruct, typename="unitree_go.msg.dds_.MotorCmds_"):
    """``rt/dex1/<side>/cmd``."""

    cmds: types.sequence[GoMotorCmd] = field(default_factory=list)


@dataclass
@annotate.final
@annotate.autoid("sequential")
class GoMotorState(idl.IdlStruct, typename="unitree_go.msg.dds_.MotorState_"):
    """One gripper motor's state."""

    mode: types.uint8 = 0
    q: types.float32 = 0.0
    dq: types.float32 = 0.0
    ddq: types.float32 = 0.0
    tau_est: types.float32 = 0.0
    q_raw: types.float32 = 0.0
    dq_raw: types.float32 = 0.0
    ddq_raw: types.float32 = 0.0
    temperature: types.uint8 = 0
    lost: types.uint32 = 0
    reserve: types.array[types.uint32, 2] = field(default_factory=lambda: [0, 0])


@dataclass
@annotate.final
@annotate.autoid("sequential")
class GoMotorStates(idl.IdlStruct, typename="unitree_go.msg.dds_.MotorStates_"):
    """``rt/dex1/<side>/state``."""

    states: types.sequence[GoMotorState] = field(default_factory=list)
