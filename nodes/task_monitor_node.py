#!/usr/bin/env python3
"""Task-monitor node: evaluates each ``/bench/world_state`` on its own copy of the scene
model (no memory shared with the simulator) and publishes ``/bench/task_status``.

With ``driver`` other than ``sim`` (the hardware path) it runs free, every 20 ms on the
steady clock: falls from ``/bench/imu``, the predicate from ``/bench/joint_states`` and
the mocap poses ``/bench/mocap/<body>/pose``, "predicate unavailable" without them
(bench.hardware.free_running)."""

from __future__ import annotations

import time

import numpy as np
from geometry_msgs.msg import PoseStamped
from rclpy.node import Node
from sensor_msgs.msg import Imu, JointState

from bench import msg
from bench.hardware.free_running import POSE_TOPIC, FreeRunningMonitor
from bench.monitor import TaskMonitor, Termination
from bench.robot import constants as c
from bench.ros import convert
from bench.ros.lockstep import AnswerCache, wall_timer
from bench.ros.params import declare, episode_config
from bench.ros.spin import run_nodes
from bench.sim.session import monitor_model
from bench.sim.world import CONTROL_DT


class TaskMonitorNode(Node):
    """A TaskMonitor behind two topics."""

    def __init__(self, node_name: str = "task_monitor", **kwargs):
        super().__init__(node_name, **kwargs)
        p = declare(self, task="flip_cup", wbc_backend="", overrides="{}", driver="sim")
        self.task_name = p["task"]
        self.config = episode_config(p["task"], p["wbc_backend"], p["overrides"])
        model, task = monitor_model(p["task"], self.config)
        hold = max(1, round(self.config.success_hold_seconds / CONTROL_DT))
        self.pub = self.create_publisher(msg.TaskStatus, "/bench/task_status", 10)
        if p["driver"] != "sim":
            self._free_running(FreeRunningMonitor(task, model, hold))
            return
        self.monitor = TaskMonitor(task, model, hold)
        self.seed: int | None = None
        self.cache = AnswerCache()
        self.create_subscription(msg.WorldState, "/bench/world_state", self._evaluate, 10)

    def _free_running(self, monitor: FreeRunningMonitor) -> None:
        self.free = monitor
        self.imu: Imu | None = None
        self.joints: JointState | None = None
        self.create_subscription(Imu, "/bench/imu", lambda m: setattr(self, "imu", m), 10)
        self.create_subscription(JointState, "/bench/joint_states",
                                 lambda m: setattr(self, "joints", m), 10)
        for body in monitor.tracked:
            self.create_subscription(PoseStamped, POSE_TOPIC.format(body=body),
                                     lambda m, b=body: self._pose(b, m), 10)
        wall_timer(self, CONTROL_DT, self._evaluate_free)

    def _pose(self, body: str, pose: PoseStamped) -> None:
        p, q = pose.pose.position, pose.pose.orientation
        self.free.set_pose(body, np.array([p.x, p.y, p.z]), np.array([q.w, q.x, q.y, q.z]),
                           time.monotonic())

    def _evaluate_free(self) -> None:
        if self.imu is None or self.joints is None:
            return
        o = self.imu.orientation
        position = dict(zip(self.joints.name, self.joints.position, strict=True))
        joints = np.array([position.get(name, 0.0) for name in c.JOINTS])
        grippers = np.array([position.get(name, 0.0) for name in c.GRIPPER_JOINTS])
        status = self.free.update(np.array([o.w, o.x, o.y, o.z]), joints, grippers,
                                  time.monotonic())
        self.pub.publish(convert.status_msg(status, self.task_name, 0))

    def _evaluate(self, state: msg.WorldState) -> None:
        key = (state.seed, state.control_step, state.abort_reason)
        self.pub.publish(self.cache.answer(key, lambda: self._status(state)))

    def _status(self, state: msg.WorldState) -> msg.TaskStatus:
        if state.seed != self.seed or state.control_step <= 1:
            self.seed = state.seed
            self.monitor.reset()
        if state.abort_reason:
            status = self.monitor.end(Termination.TERMINATED, state.abort_reason)
        else:
            budget = state.control_step * self.config.demo_down_sample_rate
            status = self.monitor.update(
                state.qpos, state.qvel, state.sim_time, state.warnings,
                budget_exhausted=budget >= self.config.episode_length)
        return convert.status_msg(status, self.task_name, state.seed)


NODE = TaskMonitorNode  # the class that `bench launch --composed` instantiates


def main() -> None:
    """Run the task-monitor node until shutdown."""
    raise SystemExit(run_nodes([TaskMonitorNode]))


if __name__ == "__main__":
    main()
