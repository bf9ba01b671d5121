"""A simulated G1 that speaks the real robot's DDS interface: the project's MuJoCo G1
(and the task's scene) behind ``rt/lowcmd``, ``rt/lowstate`` and ``rt/dex1/*``, the way
unitree_mujoco puts its simulator behind unitree_sdk2 on its own domain over loopback.

Every 2 ms of sim time (the robot's 500 Hz) it takes the newest LowCmd_ with a valid
CRC (others are counted and dropped), applies each body motor's q, kp, kd as a PD servo
plus its feedforward tau, with the model's torque limits (dq must be 0, as the bridge
sends it), steps
the physics twice at 1 ms, and publishes a LowState_ with its CRC; the grippers follow
their Dex1-1 commands and report their state. Sim time runs at wall-clock pace, or
slower when the host cannot keep up (never faster, to catch up).

Like a robot on its gantry, the pelvis is held at the stance pose until the first
stiff command (any kp > 0) and for ``gantry_s`` after it, so the bridge can arm and
bring the joints to the controller's targets. Then the gantry lowers it onto its feet
over ``lower_s``, as an operator lowers a real G1: the rigid hold becomes a vertical
support force on the pelvis, damped, that falls from the robot's weight to nothing,
so the feet take the load gradually while the controller balances a robot that can
move (unitree_mujoco's elastic band plays the same part). Trace events ``lowering``
and ``released`` mark the two switches.

``trace`` (a JSON-lines file) records the pelvis every 10 ms of sim time, and every
switch between damping (no stiffness on any motor) and stiff commands, each with sim
time ``t`` and wall time ``w`` (time.time()), for tests and post-mortems.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import IO

import mujoco
import numpy as np

from bench.falls import pelvis_tilt_deg
from bench.hardware import lowcmd as lc
from bench.hardware.crc import crc32_words
from bench.hardware.dds import LOOPBACK, DdsLink, latest, latest_record, write_record
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
from bench.hardware.wire import LOWCMD_CODEC, LOWSTATE_CODEC, LOWSTATE_DTYPE
from bench.robot import assembly
from bench.robot import constants as c
from bench.sim.session import scene_spec
from bench.sim.world import G1World, gripper_targets
from bench.tasks.base import Scene
from bench.wbc.stance import torso_angles

PERIOD_STEPS = 2  # physics steps per LowCmd_/LowState_ cycle (2 ms, 500 Hz)
GRIPPER_EVERY = 10  # cycles between Dex1-1 states (50 Hz; they cost more to encode)
TRACE_PERIOD = 0.01  # s of sim time between trace lines
# The pelvis is held this long after the first stiff command: the bridge's 0.5 s ramp
# into the controller's pose. Longer holds fight the controller (it balances a robot
# that cannot move).
GANTRY_S = 0.5  # s
# Then the support falls linearly from the robot's weight to 0 over LOWER_S, with a
# vertical damper of LOWER_DAMPING while it lasts. Dropped from the rigid hold instead,
# the pelvis sank 8-11 cm below standing and tilted 6-10 degrees before the controller
# caught it, and under host load a CI run fell.
LOWER_S = 1.0  # s
LOWER_DAMPING = 700.0  # N s/m, near critical for the robot's 35 kg on a 10 rad/s support
# The support hangs from a harness above the pelvis, so it also rights a tilt (about the
# robot's weight times 0.3 m per radian) and damps its rate, in proportion to the
# weight it still carries. Without that, the robot tilted up to 10 degrees on the
# support as the rigid hold ended.
HARNESS_STIFFNESS = 100.0  # N m/rad
HARNESS_DAMPING = 20.0  # N m s/rad
GRAVITY = 9.81  # m/s^2
# Behind the wall clock by more than MAX_LAG, it does not catch up (a burst faster than
# real time would stretch the graph's latencies in sim time): it carries on from there
# at wall-clock pace, counts it, and traces lags over TRACE_LAG.
MAX_LAG = 0.004  # s
TRACE_LAG = 0.1  # s


class MockG1:
    """The MuJoCo G1 behind the unitree_sdk2 DDS interface."""

    def __init__(self, link: DdsLink, task: str = "", seed: int = 0,
                 mode_machine: int = lc.G1_29DOF_MODE_MACHINE, gantry_s: float = GANTRY_S,
                 lower_s: float = LOWER_S, trace: IO[str] | None = None):
        spec, instance = scene_spec(task, None) if task else (assembly.robot_spec(), None)
        self.world = G1World(spec)
        self.world.reset_to_keyframe()
        if instance is not None:
            instance.reset(Scene(self.world.model, self.world.data), np.random.default_rng(seed))
            mujoco.mj_forward(self.world.model, self.world.data)
        w = self.world
        self.stance = w.data.qpos[w.base_qpos:w.base_qpos + 7].copy()
        self.mode_machine = mode_machine
        self.gantry_s, self.lower_s = gantry_s, lower_s
        self.lowering_at: float | None = None  # sim time the rigid hold ends
        self.gantry = "holding"  # then "lowering", then "released"
        self.pelvis_body = w.model.body(c.PELVIS_BODY).id
        self.weight = float(w.model.body_subtreemass[self.pelvis_body]) * GRAVITY  # N
        self.trace = trace
        self.link = link  # the participant lives as long as its readers and writers
        self.cmd_reader = link.reader(LOWCMD_TOPIC, HgLowCmd)
        self.state_writer = link.writer(LOWSTATE_TOPIC, HgLowState)
        self.grip_readers = {s: link.reader(t, GoMotorCmds) for s, t in DEX1_CMD_TOPICS.items()}
        self.grip_writers = {s: link.writer(t, GoMotorStates)
                             for s, t in DEX1_STATE_TOPICS.items()}
        self.grippers = np.zeros(2)  # commanded closures
        self.q = c.KEYFRAME_JOINTS.copy()
        self.kp = np.zeros(c.NUM_JOINTS)  # motors off until the first command
        self.kd = np.zeros(c.NUM_JOINTS)
        self.tau = np.zeros(c.NUM_JOINTS)  # N m, feedforward
        self.damping: bool | None = None
        self.bad_crc = 0
        self.lag_warnings = 0
        self._next_trace = 0.0
        self._cycles = 0

    @property
    def sim_time(self) -> float:
        """Seconds of simulated time."""
        return float(self.world.data.time)

    def _event(self, **fields: object) -> None:
        if self.trace is not None:
            self.trace.write(json.dumps({"t": round(self.sim_time, 4),
                                         "w": round(time.time(), 4), **fields}) + "\n")

    def _take_commands(self) -> None:
        cmd = latest_record(self.cmd_reader, LOWCMD_CODEC)
        if cmd is not None:
            if not lc.crc_ok(cmd) or int(cmd["mode_machine"]) != self.mode_machine:
                self.bad_crc += 1
            else:
                self.q, self.kp, self.kd = lc.command_arrays(cmd)
                self.tau = lc.command_tau(cmd)
                damping = bool(np.all(self.kp == 0))
                if damping != self.damping:
                    self.damping = damping
                    self._event(event="damping" if damping else "stiff")
                if not damping and self.lowering_at is None:
                    self.lowering_at = self.sim_time + self.gantry_s
        for index, side in enumerate(c.GRIPPER_SIDES):
            grip = latest(self.grip_readers[side])
            if grip is not None and grip.cmds:
                self.grippers[index] = 1.0 - np.clip(grip.cmds[0].q / lc.DEX1_OPEN_Q, 0, 1)

    def _gantry(self) -> None:
        """Hold the pelvis, then lower the robot onto its feet, then nothing."""
        w, t = self.world, self.sim_time
        if self.gantry == "released":
            return
        if self.lowering_at is None or t < self.lowering_at:
            w.data.qpos[w.base_qpos:w.base_qpos + 7] = self.stance
            w.data.qvel[w.base_qvel:w.base_qvel + 6] = 0.0
            return
        force = w.data.xfrc_applied[self.pelvis_body]
        force[:] = 0.0
        carried = 1.0 - (t - self.lowering_at) / self.lower_s  # share of the weight
        if carried <= 0.0:
            self._switch_gantry("released")
            return
        self._switch_gantry("lowering")
        force[2] = carried * self.weight - LOWER_DAMPING * w.data.qvel[w.base_qvel + 2]
        # The harness hangs from above the pelvis: it rights a tilt and damps its rate.
        rotation = w.data.xmat[self.pelvis_body].reshape(3, 3)
        spin = rotation @ w.data.qvel[w.base_qvel + 3:w.base_qvel + 6]  # world frame
        spin[2] = 0.0  # a rope does not resist yaw
        force[3:] = carried * (HARNESS_STIFFNESS * np.cross(rotation[:, 2], (0.0, 0.0, 1.0))
                               - HARNESS_DAMPING * spin)

    def _switch_gantry(self, state: str) -> None:
        if state != self.gantry:
            self.gantry = state
            self._event(event=state)

    def _apply(self) -> None:
        w, m = self.world, self.world.model
        idx = w.motor_index
        m.actuator_gainprm[idx, 0] = self.kp  # MuJoCo affine-bias servo: kp (q* - q) - kd q'
        m.actuator_biasprm[idx, 1] = -self.kp
        m.actuator_biasprm[idx, 2] = -self.kd
        # kp (q* - q) - kd q' + tau as the servo's target q* + tau / kp (no stiffness: the
        # damping command, which carries no torque)
        w.data.ctrl[idx] = self.q + np.divide(self.tau, self.kp, out=np.zeros_like(self.tau),
                                              where=self.kp > 0)
        w.data.ctrl[w.gripper_motor] = gripper_targets(self.grippers)

    def lowstate(self) -> np.ndarray:
        """The LowState_ of the simulated robot now (a C-struct record), CRC set."""
        w = self.world
        d = w.data
        quat = d.qpos[w.base_qpos + 3:w.base_qpos + 7]
        rotation = np.zeros(9)
        mujoco.mju_quat2Mat(rotation, quat)
        record = np.zeros((), LOWSTATE_DTYPE)
        record["mode_machine"] = self.mode_machine
        record["tick"] = round(d.time * 1000) & 0xFFFFFFFF  # ms
        imu = record["imu_state"]
        imu["quaternion"] = quat
        imu["gyroscope"] = d.qvel[w.base_qvel + 3:w.base_qvel + 6]  # body frame
        imu["accelerometer"] = rotation.reshape(3, 3).T @ [0.0, 0.0, GRAVITY]  # at rest
        imu["rpy"] = _rpy(quat)
        motors = record["motor_state"][:c.NUM_JOINTS]
        motors["mode"] = lc.MOTOR_ENABLED
        motors["q"], motors["dq"] = d.qpos[w.qpos_index], d.qvel[w.qvel_index]
        motors["tau_est"] = d.actuator_force[w.motor_index]
        record["crc"] = crc32_words(record.tobytes())
        return record

    def _publish(self) -> None:
        write_record(self.state_writer, LOWSTATE_CODEC, self.lowstate())
        self._cycles += 1
        if self._cycles % GRIPPER_EVERY:
            return
        closure = self.world.gripper_state()
        for index, side in enumerate(c.GRIPPER_SIDES):
            self.grip_writers[side].write(lc.gripper_state(float(np.clip(closure[index], 0, 1))))

    def _trace_pelvis(self) -> None:
        if self.trace is None or self.sim_time + 1e-9 < self._next_trace:
            return
        self._next_trace += TRACE_PERIOD
        w = self.world
        base = w.data.qpos[w.base_qpos:w.base_qpos + 7]
        self._event(x=round(float(base[0]), 4), y=round(float(base[1]), 4),
                    z=round(float(base[2]), 4), tilt=round(pelvis_tilt_deg(base[3:]), 2),
                    pitch=round(torso_angles(w.model, w.data)[0], 4),
                    damping=bool(self.damping))

    def cycle(self) -> None:
        """One 2 ms cycle: newest commands in, physics, LowState_ out."""
        self._take_commands()
        self._apply()
        for _ in range(PERIOD_STEPS):
            self._gantry()
            mujoco.mj_step(self.world.model, self.world.data)
        self._publish()
        self._trace_pelvis()

    def run(self, duration: float, should_stop=lambda: False, rate: float = 1.0) -> None:
        """Cycle for ``duration`` s of sim time (0: until stopped), ``rate`` s of sim time
        per s of wall clock (1: real time; below 1 leaves a loaded host headroom)."""
        if rate <= 0:
            raise ValueError(f"rate {rate} must be positive (1.0 is real time)")
        start = time.monotonic() - self.sim_time / rate
        while (duration <= 0 or self.sim_time < duration) and not should_stop():
            self.cycle()
            lag = time.monotonic() - start - self.sim_time / rate  # wall-clock s
            if lag > MAX_LAG:  # too slow for the pace: restart it, note it
                self.lag_warnings += 1
                if lag > TRACE_LAG:
                    self._event(event="lag", seconds=round(lag, 3))
                start = time.monotonic() - self.sim_time / rate
            elif lag < 0:
                time.sleep(-lag)
        if self.trace is not None:
            self.trace.flush()


def _rpy(quat: np.ndarray) -> list[float]:
    w, x, y, z = quat
    roll = np.arctan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
    pitch = np.arcsin(np.clip(2 * (w * y - z * x), -1.0, 1.0))
    yaw = np.arctan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
    return [float(roll), float(pitch), float(yaw)]


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.hardware.mock_robot``: run the mock G1 until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domain", type=int, default=1, help="DDS domain (unitree_mujoco: 1)")
    parser.add_argument("--interface", default=LOOPBACK, help="network interface (lo)")
    parser.add_argument("--task", default="", help="task scene to load (default: robot only)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the task's reset")
    parser.add_argument("--duration", type=float, default=0.0, help="sim seconds (0: forever)")
    parser.add_argument("--trace", type=Path, help="JSON-lines trace file")
    parser.add_argument("--rate", type=float, default=1.0,
                        help="sim seconds per wall-clock second (1: real time)")
    args = parser.parse_args(argv)
    trace = args.trace.open("w") if args.trace else None
    try:
        robot = MockG1(DdsLink(args.domain, args.interface), args.task, args.seed, trace=trace)
        robot.run(args.duration, rate=args.rate)
    except KeyboardInterrupt:
        return 130
    finally:
        if trace is not None:
            trace.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
