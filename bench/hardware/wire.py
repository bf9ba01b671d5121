"""The unitree_hg body messages as C structs (numpy records) and as CDR bytes.

The CRC is defined on the C struct (natural alignment, little-endian), and DDS carries
the same fields as CDR (members aligned to their size from the start of the payload,
no struct padding). Both layouts hold only fixed-size fields, so a precomputed byte
map converts one into the other in microseconds; cyclonedds's generic Python
serializer takes about 0.75 ms for a LowState_, too slow for 500 Hz.
"""

from __future__ import annotations

import numpy as np

NUM_MOTORS = 35  # motor slots in unitree_hg LowCmd_/LowState_

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

_HEADER = bytes([0, 1, 0, 0])  # XCDR1 (plain CDR), little-endian


def _primitives(dtype: np.dtype, offset: int = 0):
    """(C offset, size) of every primitive element of a C struct dtype, in order."""
    for name in dtype.names or ():
        field_dtype, field_offset = dtype.fields[name][:2]  # type: ignore[index]
        base, count = field_dtype.base, int(np.prod(field_dtype.shape, dtype=int))
        for k in range(count):
            start = offset + field_offset + k * base.itemsize
            if base.names:
                yield from _primitives(base, start)
            else:
                yield start, base.itemsize


class CdrCodec:
    """Converts a C struct record of ``dtype`` to CDR bytes and back (little-endian)."""

    def __init__(self, dtype: np.dtype):
        self.dtype = dtype
        source: list[int] = []  # for each CDR byte, the C byte it copies; -1 = padding
        for c_offset, size in _primitives(dtype):
            while len(source) % min(size, 4):  # CDR aligns each primitive to its size
                source.append(-1)
            source.extend(range(c_offset, c_offset + size))
        index = np.array(source)
        self._pad = index < 0
        self._encode = np.where(self._pad, 0, index)
        self._decode_from = np.flatnonzero(~self._pad)
        self._decode_to = index[~self._pad]
        self.size = len(source)

    def encode(self, record: np.ndarray) -> bytes:
        """XCDR1 bytes (with the encapsulation header) of a record. (XCDR2 would add a
        length header before arrays of structs; DDS peers here use XCDR1.)"""
        raw = np.frombuffer(record.tobytes(), np.uint8)
        body = raw[self._encode]
        body[self._pad] = 0
        payload = _HEADER + body.tobytes()
        return payload.ljust((len(payload) + 3) & ~3, b"\0")

    def decode(self, data: bytes) -> np.ndarray:
        """The record an XCDR1 little-endian payload (with its header) holds."""
        if len(data) < 4 + self.size or data[1] != 1:
            raise ValueError(f"expected a little-endian XCDR1 payload of {4 + self.size} bytes, "
                             f"got {len(data)} bytes with header {bytes(data[:4])!r}")
        body = np.frombuffer(data, np.uint8, count=self.size, offset=4)
        raw = np.zeros(self.dtype.itemsize, np.uint8)
        raw[self._decode_to] = body[self._decode_from]
        return raw.view(self.dtype)[0]


LOWCMD_CODEC = CdrCodec(LOWCMD_DTYPE)
LOWSTATE_CODEC = CdrCodec(LOWSTATE_DTYPE)
