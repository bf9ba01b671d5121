"""The CRC32 that the G1 checks on every ``LowCmd_`` (and sets on every ``LowState_``).

Unitree's checksum runs over the message as its C struct lies in memory (natural
alignment, little-endian), read as 32-bit words, every word but the last (the ``crc``
field itself). Each word is fed most significant bit first into a CRC32 with
polynomial 0x04C11DB7, initial value 0xFFFFFFFF, no reflection and no final XOR:
CRC-32/MPEG-2 over the words' big-endian bytes. It is computed here with zlib (a
reflected CRC32 on bit-reversed bytes, then reversed back), a few microseconds per
message. A test checks it against unitree_sdk2py's own implementation.
"""

from __future__ import annotations

import zlib

import numpy as np

from bench.hardware.unitree_idl import NUM_MOTORS, HgLowCmd, HgLowState

# The C layouts of unitree_hg's structs (align=True pads as the C compiler does).
MOTOR_CMD_DTYPE = np.dtype([("mode", "u1"), ("q", "<f4"), ("dq", "<f4"), ("tau", "<f4"),
                            ("kp", "<f4"), ("kd", "<f4"), ("reserve", "<u4")], align=True)
LOWCMD_DTYPE = np.dtype([("mode_pr", "u1"), ("mode_machine", "u1"),
                         ("motor_cmd", MOTOR_CMD_DTYPE, (NUM_MOTORS,)),
                         ("reserve", "<u4", (4,)), ("crc", "<u4")], align=True)
IMU_DTYPE = np.dtype([("quaternion", "<f4", (4,)), ("gyroscope", "<f4", (3,)),
                      ("accelerometer", "<f4", (3,)), ("rpy", "<f4", (3,)),
                      ("temperature", "<i2")], align=True)
MOTOR_STATE_DTYPE = np.dtype([("mode", "u1"), ("q", "<f4"), ("dq", "<f4"), ("ddq", "<f4"),
                              ("tau_est", "<f4"), ("temperature", "<i2", (2,)),
                              ("vol", "<f4"), ("sensor", "<u4", (2,)), ("motorstate", "<u4"),
                              ("reserve", "<u4", (4,))], align=True)
LOWSTATE_DTYPE = np.dtype([("version", "<u4", (2,)), ("mode_pr", "u1"), ("mode_machine", "u1"),
                           ("tick", "<u4"), ("imu_state", IMU_DTYPE),
                           ("motor_state", MOTOR_STATE_DTYPE, (NUM_MOTORS,)),
                           ("wireless_remote", "u1", (40,)), ("reserve", "<u4", (4,)),
                           ("crc", "<u4")], align=True)

_REVERSED_BYTE = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def crc32_words(packed: bytes) -> int:
    """Unitree's CRC32 of a packed struct: all its 32-bit words but the last."""
    words = np.frombuffer(packed, "<u4")[:-1]
    stream = words.astype(">u4").tobytes().translate(_REVERSED_BYTE)
    reflected = zlib.crc32(stream) ^ 0xFFFFFFFF  # zlib applies a final XOR; undo it
    return int(f"{reflected:032b}"[::-1], 2)


def pack_lowcmd(cmd: HgLowCmd) -> np.ndarray:
    """A LowCmd_ as its C struct (a LOWCMD_DTYPE record)."""
    record = np.zeros((), LOWCMD_DTYPE)
    record["mode_pr"], record["mode_machine"] = cmd.mode_pr, cmd.mode_machine
    motors = record["motor_cmd"]
    for name in MOTOR_CMD_DTYPE.names or ():
        motors[name] = [getattr(m, name) for m in cmd.motor_cmd]
    record["reserve"], record["crc"] = cmd.reserve, cmd.crc
    return record


def pack_lowstate(state: HgLowState) -> np.ndarray:
    """A LowState_ as its C struct (a LOWSTATE_DTYPE record)."""
    record = np.zeros((), LOWSTATE_DTYPE)
    for name in ("version", "mode_pr", "mode_machine", "tick", "wireless_remote", "reserve",
                 "crc"):
        record[name] = getattr(state, name)
    for name in IMU_DTYPE.names or ():
        record["imu_state"][name] = getattr(state.imu_state, name)
    motors = record["motor_state"]
    for name in MOTOR_STATE_DTYPE.names or ():
        motors[name] = [getattr(m, name) for m in state.motor_state]
    return record


def lowcmd_crc(cmd: HgLowCmd) -> int:
    """The CRC a LowCmd_ must carry."""
    return crc32_words(pack_lowcmd(cmd).tobytes())


def lowstate_crc(state: HgLowState) -> int:
    """The CRC a LowState_ must carry."""
    return crc32_words(pack_lowstate(state).tobytes())
