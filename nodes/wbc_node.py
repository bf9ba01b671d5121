#!/usr/bin/env python3
"""WBC node: the lower-body controller answers each ``/bench/wbc/request`` with
``/bench/wbc/targets`` (legs and waist, or the floating base's pelvis pose)."""

from __future__ import annotations

from rclpy.node import Node

from bench import msg
from bench.ros import convert
from bench.ros.lockstep import AnswerCache
from bench.ros.params import declare, episode_config
from bench.ros.spin import run_nodes
from bench.wbc import resolve_backend


class WbcNode(Node):
    """A lower-body backend behind two topics."""

    def __init__(self, node_name: str = "wbc", **kwargs):
        super().__init__(node_name, **kwargs)
        p = declare(self, task="flip_cup", wbc_backend="", overrides="{}")
        config = episode_config(p["task"], p["wbc_backend"], p["overrides"])
        self.backend = resolve_backend(config.controller)
        if self.backend.substitution:
            self.get_logger().warning(self.backend.substitution)
        self.get_logger().info(f"lower-body backend: {self.backend.name}")
        self.pub = self.create_publisher(msg.JointTargets, "/bench/wbc/targets", 10)
        self.cache = AnswerCache()
        self.create_subscription(msg.WbcRequest, "/bench/wbc/request", self._answer, 10)

    def _answer(self, request: msg.WbcRequest) -> None:
        key = (request.seed, request.control_step)
        self.pub.publish(self.cache.answer(key, lambda: self._targets(request)))

    def _targets(self, request: msg.WbcRequest) -> msg.JointTargets:
        state, command, arms = convert.request_parts(request)
        controller = self.backend.controller
        if request.reset:
            controller.reset(state)
        targets = controller.command(state, command, arms)
        return convert.targets_msg(targets, request.seed, request.control_step)


NODE = WbcNode  # the class that `bench launch --composed` instantiates


def main() -> None:
    """Run the WBC node until shutdown."""
    raise SystemExit(run_nodes([WbcNode]))


if __name__ == "__main__":
    main()
