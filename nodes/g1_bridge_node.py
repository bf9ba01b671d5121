#!/usr/bin/env python3
"""G1 bridge node: the graph on a real (or mock) Unitree G1 over unitree_sdk2 DDS.

Free-running, on the steady clock. A real-time thread takes the newest LowState_
(valid CRC) and sends a LowCmd_ every 2 ms from bench.hardware.bridge: damping until
armed, then the latest targets (policy arms, WBC legs and waist) clamped and rate
limited; Dex1-1 gripper commands at 100 Hz. Every 20 ms it publishes, from the
measured state: ``/bench/observation`` and ``/bench/wbc/request`` (control step k;
the seed field counts the arm requests granted, and k restarts at 0 on each, so the
policy and the WBC start afresh), ``/clock`` (the robot's tick), ``/bench/joint_states``
and ``/bench/imu``. Control steps follow the robot's clock (LowState_.tick), which on
the mock robot is sim time, so a slow host slows the graph rather than the physics.

Services ``/bench/bridge/arm`` and ``/bench/bridge/disarm`` (std_srvs/Trigger); the
node starts disarmed, and ``/bench/bridge/state`` (std_msgs/String, latched) says
where it is. On shutdown it sends damping for 0.1 s before it stops.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import rclpy
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import Imu, JointState
from std_msgs.msg import String
from std_srvs.srv import Trigger

from bench import msg
from bench.hardware import lowcmd as lc
from bench.hardware.bridge import HEARTBEAT_TIMEOUT, LOWSTATE_TIMEOUT, TICK, BridgeCore
from bench.hardware.dds import DdsLink, latest, latest_record, write_record
from bench.hardware.mirror import RobotMirror
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
from bench.ros import convert
from bench.ros.lockstep import wall_timer
from bench.ros.params import declare, episode_config
from bench.ros.spin import run_nodes
from bench.sim.world import CONTROL_DT

GRIPPER_EVERY = 5  # ticks between Dex1-1 commands (100 Hz)
POLL = 0.004  # s between checks of the robot's clock for the next control step
STEP_MS = round(CONTROL_DT * 1000)  # robot-clock ms per control step
SHUTDOWN_DAMPING = 0.1  # s of damping commands sent when the node stops


class G1BridgeNode(Node):
    """BridgeCore between the graph's topics and the robot's DDS."""

    def __init__(self, node_name: str = "g1_bridge", **kwargs):
        super().__init__(node_name, **kwargs)
        p = declare(self, task="flip_cup", wbc_backend="", overrides="{}", dds_domain=1,
                    network_interface="lo", expected_mode_machine=lc.G1_29DOF_MODE_MACHINE,
                    heartbeat_timeout=HEARTBEAT_TIMEOUT, lowstate_timeout=LOWSTATE_TIMEOUT,
                    duration=0.0)
        self.duration = p["duration"]
        self.mirror = RobotMirror(p["task"], episode_config(p["task"], p["wbc_backend"],
                                                            p["overrides"]))
        self.core = BridgeCore(p["heartbeat_timeout"], p["lowstate_timeout"],
                               p["expected_mode_machine"])
        self.lock = threading.Lock()
        self.link = DdsLink(p["dds_domain"], p["network_interface"])
        self.cmd_writer = self.link.writer(LOWCMD_TOPIC, HgLowCmd)
        self.state_reader = self.link.reader(LOWSTATE_TOPIC, HgLowState)
        self.grip_writers = [self.link.writer(DEX1_CMD_TOPICS[s], GoMotorCmds)
                             for s in c.GRIPPER_SIDES]
        self.grip_readers = [self.link.reader(DEX1_STATE_TOPICS[s], GoMotorStates)
                             for s in c.GRIPPER_SIDES]
        self.closures = np.zeros(2)
        self.step, self.session = 0, 0
        self.next_step: int | None = None  # robot tick (ms) of the next control step
        self.started: float | None = None
        self.step_tick = 0.0  # robot time (s) of the latest control step
        self.round_trips: list[float] = []  # robot-clock s from WBC request to its answer
        self.exit_code: int | None = None
        pub = self.create_publisher
        self.obs_pub = pub(msg.Observation, "/bench/observation", 10)
        self.wbc_pub = pub(msg.WbcRequest, "/bench/wbc/request", 10)
        self.clock_pub = pub(Clock, "/clock", 10)
        self.joints_pub = pub(JointState, "/bench/joint_states", 10)
        self.imu_pub = pub(Imu, "/bench/imu", 10)
        self.state_pub = pub(String, "/bench/bridge/state",
                             QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))
        self.create_subscription(msg.PolicyAction, "/bench/action", self._action, 10)
        self.create_subscription(msg.JointTargets, "/bench/wbc/targets", self._targets, 10)
        self.create_service(Trigger, "/bench/bridge/arm", self._arm)
        self.create_service(Trigger, "/bench/bridge/disarm", self._disarm)
        self._published_state = ""
        wall_timer(self, POLL, self._control_step)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._realtime, name="lowcmd", daemon=True)
        self._thread.start()
        self.get_logger().info(f"on DDS domain {p['dds_domain']} via {p['network_interface']}; "
                               "disarmed (call /bench/bridge/arm)")

    # ----- the 500 Hz loop (its own thread) -----------------------------------------------

    def _realtime(self) -> None:
        next_tick, ticks = time.monotonic(), 0
        while not self._stop.is_set():
            now = time.monotonic()
            state = latest_record(self.state_reader, LOWSTATE_CODEC)
            with self.lock:
                if state is not None and lc.crc_ok(state):
                    self.core.on_lowstate(lc.read_lowstate(state), now)
                for i, reader in enumerate(self.grip_readers):
                    grip = latest(reader)
                    if grip is not None and grip.states:
                        self.closures[i] = lc.gripper_closure(grip)
                tick = self.core.tick(now)
            if tick.fault is not None:
                self.get_logger().error(tick.fault)
            for event in tick.events:
                self.get_logger().warning(event, throttle_duration_sec=1.0)
            if tick.cmd is not None:
                write_record(self.cmd_writer, LOWCMD_CODEC, tick.cmd)
            if tick.grippers is not None and ticks % GRIPPER_EVERY == 0:
                for writer, closure in zip(self.grip_writers, tick.grippers, strict=True):
                    writer.write(lc.gripper_cmd(closure))
            ticks += 1
            next_tick = max(next_tick + TICK, time.monotonic() - TICK)
            self._stop.wait(max(0.0, next_tick - time.monotonic()))

    # ----- graph side ---------------------------------------------------------------------

    def _action(self, action: msg.PolicyAction) -> None:
        try:
            self.mirror.apply_action(action.action)
            s = self.mirror.session
            with self.lock:
                self.core.on_policy(s.arm_targets, s.grippers)
        except ValueError as error:
            self.get_logger().error(f"action ignored: {error}", throttle_duration_sec=1.0)

    def _targets(self, targets: msg.JointTargets) -> None:
        if targets.seed == self.session and targets.control_step == self.step - 1:
            self.round_trips.append(self.core.robot_time - self.step_tick)
        if len(targets.base_pose):
            self.get_logger().error("floating-base targets cannot drive a robot; use a "
                                    "legged wbc_backend", throttle_duration_sec=1.0)
            return
        try:
            with self.lock:
                self.core.on_wbc(targets.position, targets.kp, targets.kd)
        except ValueError as error:
            self.get_logger().error(f"WBC targets ignored: {error}", throttle_duration_sec=1.0)

    def _arm(self, request: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        with self.lock:
            response.success, response.message = self.core.arm(time.monotonic())
        if response.success:
            self.session, self.step = self.session + 1, 0
        self.get_logger().warning(f"arm request: {response.message}")
        return response

    def _disarm(self, request: Trigger.Request,
                response: Trigger.Response) -> Trigger.Response:
        with self.lock:
            response.success, response.message = True, self.core.disarm()
        self.get_logger().warning(response.message)
        return response

    def _control_step(self) -> None:
        with self.lock:
            body, closures = self.core.body, self.closures.copy()
            state = f"{self.core.state.value}: {self.core.arming.reason}"
        if state != self._published_state:
            self.state_pub.publish(String(data=state))
            self._published_state = state
        if body is None or (self.next_step is not None and body.tick < self.next_step):
            return
        due = (self.next_step or body.tick) + STEP_MS
        self.next_step = due if due > body.tick else body.tick + STEP_MS  # behind: skip
        now = time.monotonic()
        self.started = self.started or now
        if self.duration > 0 and now - self.started >= self.duration:
            self.exit_code = 0
            return
        stamp = rclpy.time.Time(nanoseconds=body.tick * 1_000_000).to_msg()
        self.clock_pub.publish(Clock(clock=stamp))
        self._publish_sensors(body, closures, stamp)
        m = self.mirror
        m.load(body, closures, body.tick / 1000.0)
        s = m.session
        observation = convert.observation_msg(m.observation(), self.session, self.step, stamp,
                                              ())
        request = convert.wbc_request(m.robot_state(), s.base_command, s.arm_targets,
                                      self.session, self.step, reset=self.step == 0)
        request.header.stamp = stamp
        self.obs_pub.publish(observation)
        self.wbc_pub.publish(request)
        with self.lock:
            self.core.on_request()
        m.advance()
        self.step += 1
        self.step_tick = body.tick / 1000.0
        if len(self.round_trips) >= 250:  # about every 5 s
            trips = np.array(self.round_trips) * 1000
            self.get_logger().info(f"WBC round trip on the robot clock: mean {trips.mean():.1f} "
                                   f"ms, max {trips.max():.1f} ms")
            self.round_trips.clear()

    def _publish_sensors(self, body: lc.BodyState, closures: np.ndarray, stamp) -> None:
        joints = JointState(name=[*c.JOINTS, *c.GRIPPER_JOINTS],
                            position=[*body.q.tolist(), *closures.tolist()],
                            velocity=[*body.dq.tolist(), 0.0, 0.0])
        joints.header.stamp = stamp
        self.joints_pub.publish(joints)
        imu = Imu()
        imu.header.stamp, imu.header.frame_id = stamp, c.IMU_SITE
        w, x, y, z = body.quat.tolist()
        imu.orientation.w, imu.orientation.x, imu.orientation.y, imu.orientation.z = w, x, y, z
        imu.angular_velocity.x, imu.angular_velocity.y, imu.angular_velocity.z = body.gyro
        a = imu.linear_acceleration
        a.x, a.y, a.z = body.accel
        self.imu_pub.publish(imu)

    def destroy_node(self) -> None:
        """Stop the loop, then send damping for SHUTDOWN_DAMPING seconds."""
        self._stop.set()
        self._thread.join(timeout=1.0)
        with self.lock:
            self.core.disarm("shutting down")
            mode_machine = self.core.first_mode_machine
        if mode_machine is not None:
            damping = lc.damping_record(mode_machine)
            for _ in range(round(SHUTDOWN_DAMPING / TICK)):
                write_record(self.cmd_writer, LOWCMD_CODEC, damping)
                time.sleep(TICK)
        super().destroy_node()


NODE = G1BridgeNode  # the class that `bench launch --composed` instantiates


def main() -> None:
    """Run the bridge node until shutdown."""
    raise SystemExit(run_nodes([G1BridgeNode]))


if __name__ == "__main__":
    main()
