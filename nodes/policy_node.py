#!/usr/bin/env python3
"""Policy node: serves a ``module:factory`` Python policy over topics. It answers each
``/bench/observation`` with ``/bench/action``; any other node that does the same can
stand in for it. An oracle policy (``observe_world``, bench.policies.oracle) also gets
``/bench/world_state``: observation k (k >= 1) is answered once the world state of
step k has been fed to it, exactly as in process."""

from __future__ import annotations

import numpy as np
from rclpy.node import Node

from bench import msg
from bench.policies import load_policy
from bench.policies.oracle import WorldState, reads_world
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
        self.world: dict[tuple[int, int], WorldState] = {}  # oracle: states not yet fed
        self.waiting: msg.Observation | None = None  # observation whose state is not here
        if reads_world(self.policy):
            self.create_subscription(msg.WorldState, "/bench/world_state", self._world, 10)

    def _world(self, state: msg.WorldState) -> None:
        key = (state.seed, state.control_step)
        self.world[key] = WorldState(seed=state.seed, control_step=state.control_step,
                                     sim_time=state.sim_time, qpos=np.asarray(state.qpos),
                                     qvel=np.asarray(state.qvel))
        while len(self.world) > 8:
            self.world.pop(next(iter(self.world)))
        if self.waiting is not None and (self.waiting.seed,
                                         self.waiting.control_step) == key:
            observation, self.waiting = self.waiting, None
            self._act(observation)

    def _act(self, observation: msg.Observation) -> None:
        key = (observation.seed, observation.control_step)
        if (reads_world(self.policy) and observation.control_step > 0 and key != self.cache.key
                and key not in self.world):
            self.waiting = observation  # answered when its world state arrives
            return
        self.pub.publish(self.cache.answer(key, lambda: self._action(observation)))

    def _action(self, observation: msg.Observation) -> msg.PolicyAction:
        if observation.control_step == 0 or observation.seed != self.seed:
            self.seed = observation.seed
            if hasattr(self.policy, "reset"):
                self.policy.reset()
        key = (observation.seed, observation.control_step)
        if key in self.world:
            self.policy.observe_world(self.world.pop(key))
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
