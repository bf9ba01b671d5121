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
the mock robot is sim time, so a slow host slows the graph rather than the physics;
the LowCmd_ thread wakes the executor (a guard condition) as soon as one is due.

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
from bench.hardware.bridge import HEARTBEAT_TIMEOUT, LOWSTATE_TIMEOUT, BridgeCore
from bench.hardware.dds import DdsLink
from bench.hardware.mirror import RobotMirror
from bench.hardware.realtime import LowCmdLoop
from bench.ros import convert
from bench.ros import hardware as hw
from bench.ros.lockstep import wall_timer
from bench.ros.params import declare, episode_config
from bench.ros.spin import run_nodes
from bench.sim.world import CONTROL_DT

STATE_PERIOD = 0.05  # s between checks of the arming state without LowState_
STEP_MS = round(CONTROL_DT * 1000)  # robot-clock ms per control step


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
        log = self.get_logger()
        self.step_due = self.create_guard_condition(self._control_step)
        self.loop = LowCmdLoop(self.core, self.lock,
                               DdsLink(p["dds_domain"], p["network_interface"]), log.error,
                               lambda text: log.warning(text, throttle_duration_sec=1.0),
                               self._robot_tick)
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
        wall_timer(self, STATE_PERIOD, self._control_step)  # also when LowState_ stops
        self.loop.start()
        self.where = f"DDS domain {p['dds_domain']} via {p['network_interface']}"
        self.get_logger().info(f"on {self.where}; disarmed (call /bench/bridge/arm)")

    # ----- graph side ---------------------------------------------------------------------

    def _robot_tick(self, tick: int) -> None:
        """From the LowCmd_ thread: wake the executor when a control step is due."""
        if self.next_step is None or tick >= self.next_step:
            self.step_due.trigger()

    def _action(self, action: msg.PolicyAction) -> None:
        try:
            self.mirror.apply_action(action.action, self.core.robot_time)
            s = self.mirror.session
            with self.lock:
                self.core.on_policy(s.arm_targets, s.grippers)
        except ValueError as error:
            self.get_logger().error(f"action ignored: {error}", throttle_duration_sec=1.0)

    def _targets(self, targets: msg.JointTargets) -> None:
        if targets.seed == self.session and targets.control_step == self.step - 1:
            self.round_trips.append(self.core.robot_time - self.step_tick)
        try:
            if len(targets.base_pose):
                raise ValueError("floating-base targets cannot drive a robot; use a legged "
                                 "wbc_backend")
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
            body, closures = self.core.body, self.loop.closures.copy()
            state = f"{self.core.state.value}: {self.core.arming.reason}"
        if state != self._published_state:
            self.state_pub.publish(String(data=state))
            self._published_state = state
        if body is None:
            self.get_logger().warning(f"no LowState_ from the robot yet ({self.where})",
                                      throttle_duration_sec=5.0)
            return
        if self.next_step is not None and body.tick < self.next_step:
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
        self.joints_pub.publish(hw.joint_state_msg(body, closures, stamp))
        self.imu_pub.publish(hw.imu_msg(body, stamp))
        m = self.mirror
        m.load(body, closures, body.tick / 1000.0)
        s = m.session
        observation = convert.observation_msg(m.observation(), self.session, self.step, stamp,
                                              ())
        command = m.base_command(body.tick / 1000.0)
        request = convert.wbc_request(m.robot_state(), command, s.arm_targets,
                                      self.session, self.step, reset=self.step == 0)
        request.header.stamp = stamp
        self.obs_pub.publish(observation)
        self.wbc_pub.publish(request)
        with self.lock:
            self.core.on_request()
        m.advance(command)
        self.step += 1
        self.step_tick = body.tick / 1000.0
        if len(self.round_trips) >= 250:  # about every 5 s
            trips = np.array(self.round_trips) * 1000
            self.get_logger().info(f"WBC round trip on the robot clock: mean {trips.mean():.1f} "
                                   f"ms, max {trips.max():.1f} ms")
            self.round_trips.clear()

    def destroy_node(self) -> None:
        """Stop the loop: it disarms and sends damping for 0.1 s."""
        self.loop.stop()
        super().destroy_node()


NODE = G1BridgeNode  # the class that `bench launch --composed` instantiates


def main() -> None:
    """Run the bridge node until shutdown."""
    raise SystemExit(run_nodes([G1BridgeNode]))


if __name__ == "__main__":
    main()
