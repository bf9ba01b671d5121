"""The bridge's 500 Hz loop: the robot's DDS on one side, a BridgeCore on the other.

Runs in its own thread so that the ROS executor's pauses never delay a LowCmd_. Each
2 ms it takes the newest LowState_ (CRC checked) and Dex1-1 states, asks the core for
this tick's command under the shared lock, sends it, and reports faults and events to
the caller's log functions.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np

from bench.hardware import lowcmd as lc
from bench.hardware.bridge import TICK, BridgeCore
from bench.hardware.dds import DdsLink, latest, latest_record, write_record
from bench.hardware.unitree_idl import (
    DEX1_CMD_TOPICS,
    DEX1_STATE_TOPICS,
    LOWCMD_TOPIC,
    LOWSTATE_TOPIC,
    GoMotorCmds,
    GoMotorStates,
    HgLowCmd,
    HgLowState,
)
from bench.hardware.wire import LOWCMD_CODEC, LOWSTATE_CODEC
from bench.robot import constants as c

GRIPPER_EVERY = 5  # ticks between Dex1-1 commands (100 Hz)
SHUTDOWN_DAMPING = 0.1  # s of damping commands sent when the loop stops


class LowCmdLoop:
    """The thread that talks to the robot every tick."""

    def __init__(self, core: BridgeCore, lock: threading.Lock, link: DdsLink,
                 error: Callable[[str], None], warning: Callable[[str], None],
                 on_state: Callable[[int], None]):
        """``on_state(tick)`` is called (outside the lock) after each valid LowState_."""
        self.core, self.lock, self.link = core, lock, link
        self.error, self.warning, self.on_state = error, warning, on_state
        self.cmd_writer = link.writer(LOWCMD_TOPIC, HgLowCmd)
        self.state_reader = link.reader(LOWSTATE_TOPIC, HgLowState)
        self.grip_writers = [link.writer(DEX1_CMD_TOPICS[s], GoMotorCmds)
                             for s in c.GRIPPER_SIDES]
        self.grip_readers = [link.reader(DEX1_STATE_TOPICS[s], GoMotorStates)
                             for s in c.GRIPPER_SIDES]
        self.closures = np.zeros(2)  # measured gripper closures, under the lock
        self.bad_crc = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="lowcmd", daemon=True)

    def start(self) -> None:
        """Start the thread."""
        self._thread.start()

    def _run(self) -> None:
        next_tick, ticks = time.monotonic(), 0
        while not self._stop.is_set():
            now = time.monotonic()
            state = latest_record(self.state_reader, LOWSTATE_CODEC)
            grips = [latest(reader) for reader in self.grip_readers]
            valid = state is not None and lc.crc_ok(state)
            with self.lock:
                if state is not None and valid:
                    self.core.on_lowstate(lc.read_lowstate(state), now)
                elif state is not None:
                    self.bad_crc += 1
                for i, grip in enumerate(grips):
                    if grip is not None and grip.states:
                        self.closures[i] = lc.gripper_closure(grip)
                tick = self.core.tick(now)
            if state is not None and valid:
                self.on_state(int(state["tick"]))
            if tick.fault is not None:
                self.error(tick.fault)
            for event in tick.events:
                self.warning(event)
            if tick.cmd is not None:
                write_record(self.cmd_writer, LOWCMD_CODEC, tick.cmd)
            if tick.grippers is not None and ticks % GRIPPER_EVERY == 0:
                for writer, closure in zip(self.grip_writers, tick.grippers, strict=True):
                    writer.write(lc.gripper_cmd(closure))
            ticks += 1
            next_tick = max(next_tick + TICK, time.monotonic() - TICK)
            self._stop.wait(max(0.0, next_tick - time.monotonic()))

    def stop(self) -> None:
        """Stop the thread, disarm, and send damping for SHUTDOWN_DAMPING seconds."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=1.0)
        with self.lock:
            self.core.disarm("shutting down")
            mode_machine = self.core.first_mode_machine
        if mode_machine is None:
            return
        damping = lc.damping_record(mode_machine)
        for _ in range(round(SHUTDOWN_DAMPING / TICK)):
            write_record(self.cmd_writer, LOWCMD_CODEC, damping)
            time.sleep(TICK)
