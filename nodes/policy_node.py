#!/usr/bin/env python3
"""Policy node: serves a ``module:factory`` Python policy over topics. It answers each
``/bench/observation`` with ``/bench/action``; any other node that does the same can
stand in for it."""

from __future__ import annotations

import numpy as np
from rclpy.node import Node

from bench import msg
from bench.policies import load_policy
from bench.ros import convert
from bench.ros.lockstep import AnswerCache
from bench.ros.params import declare, episode_config
from bench.ros.spin import run_nodes


class PolicyNode(Node):
    """A policy callable behind two topics."""

    def __init__(self, node_name: str = "policy", **kwargs):
        super().__init__(node_name, **kwargs)
        p = declare(self, task="flip_cup", policy="bench.policies.builtin:hold",
                    wbc_backend="", overrides="{}")
        self.cameras = episode_config(p["task"], p["wbc_backend"], p["overrides"]).camera_keys
        self.policy = load_policy(p["policy"], p["task"])
        self.seed: int | None = None
        self.pub = self.create_publisher(msg.PolicyAction, "/bench/action", 10)
        self.cache = AnswerCache()
        self.create_subscription(msg.Observation, "/bench/observation", self._act, 10)

    def _act(self, observation: msg.Observation) -> None:
        key = (observation.seed, observation.control_step)
        self.pub.publish(self.cache.answer(key, lambda: self._action(observation)))

    def _action(self, observation: msg.Observation) -> msg.PolicyAction:
        if observation.control_step == 0 or observation.seed != self.seed:
            self.seed = observation.seed
            if hasattr(self.policy, "reset"):
                self.policy.reset()
        action = self.policy(convert.observation_dict(observation, self.cameras))
        out = msg.PolicyAction(seed=observation.seed, control_step=observation.control_step,
                               action=np.asarray(action, np.float32).reshape(-1))
        out.header.stamp = observation.header.stamp
        return out


NODE = PolicyNode  # the class that `bench launch --composed` instantiates


def main() -> None:
    """Run the policy node until shutdown."""
    raise SystemExit(run_nodes([PolicyNode]))


if __name__ == "__main__":
    main()
