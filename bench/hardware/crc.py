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

from bench.hardware.unitree_idl import HgLowCmd, HgLowState

_REVERSED_BYTE = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def crc32_words(packed: bytes) -> int:
    """Unitree's CRC32 of a packed struct: all its 32-bit words but the last."""
    words = np.frombuffer(packed, "<u4")[:-1]
    stream = words.astype(">u4").tobytes().translate(_REVERSED_BYTE)
    reflected = zlib.crc32(stream) ^ 0xFFFFFFFF  # zlib applies a final XOR; undo it
    return int(f"{reflected:032b}"[::-1], 2)


def lowcmd_crc(cmd: HgLowCmd) -> int:
    """The CRC a LowCmd_ must carry."""
    return crc32_words(cmd.to_record().tobytes())


def lowstate_crc(state: HgLowState) -> int:
    """The CRC a LowState_ must carry."""
    return crc32_words(state.to_record().tobytes())
