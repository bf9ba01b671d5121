#!/usr/bin/env python3
"""Task-monitor node: evaluates each ``/bench/world_state`` on its own copy of the scene
model (no memory shared with the simulator) and publishes ``/bench/task_status``."""

from __future__ import annotations

from rclpy.node import Node

from bench import msg
from bench.monitor import TaskMonitor, Termination
from bench.ros import convert
from bench.ros.lockstep import AnswerCache
from bench.ros.params import declare, episode_config
from bench.ros.spin import run_nodes
from bench.sim.session import monitor_model
from bench.sim.world import CONTROL_DT


class TaskMonitorNode(Node):
    """A TaskMonitor behind two topics."""

    def __init__(self, node_name: str = "task_monitor", **kwargs):
        super().__init__(node_name, **kwargs)
        p = declare(self, task="flip_cup", wbc_backend="", overrides="{}")
        self.task_name = p["task"]
        self.config = episode_config(p["task"], p["wbc_backend"], p["overrides"])
        model, task = monitor_model(p["task"], self.config)
        hold = max(1, round(self.config.success_hold_seconds / CONTROL_DT))
        self.monitor = TaskMonitor(task, model, hold)
        self.seed: int | None = None
        self.pub = self.create_publisher(msg.TaskStatus, "/bench/task_status", 10)
        self.cache = AnswerCache()
        self.create_subscription(msg.WorldState, "/bench/world_state", self._evaluate, 10)

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
