#!/usr/bin/env python3
"""Simulator node: MuJoCo behind the graph's lockstep.

Reset service ``/bench/reset`` (seed in, initial observation out) runs the task's
seeded reset and the warmup through the WBC node. Then, per control step k: publish
``/bench/observation`` (k) and ``/clock``; wait for ``/bench/action`` (k); send
``/bench/wbc/request`` and wait for ``/bench/wbc/targets``; step the physics; publish
``/bench/world_state`` (k+1); wait for ``/bench/task_status`` (k+1); stop when it says
done. A missing answer ends the episode as ``terminated`` with the reason; it never
hangs.
"""

from __future__ import annotations

import rclpy
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock

from bench import msg, srv
from bench.ros import convert
from bench.ros.lockstep import GRAPH_FAILURE, Mailbox
from bench.ros.params import declare, episode_config
from bench.ros.spin import run_nodes
from bench.sim.session import SimSession


class SimNode(Node):
    """A SimSession behind topics and the reset service."""

    def __init__(self, node_name: str = "sim", **kwargs):
        super().__init__(node_name, **kwargs)
        p = declare(self, task="flip_cup", wbc_backend="", overrides="{}", action_timeout=5.0,
                    wbc_timeout=5.0, status_timeout=5.0)
        self.p = p
        self.config = episode_config(p["task"], p["wbc_backend"], p["overrides"])
        floating = self.config.controller.backend == "floating_base"
        self.session = SimSession(p["task"], self.config, floating)
        self.cameras = self.config.camera_keys
        self.hold = max(1, round(self.config.success_hold_seconds / 0.02))
        self.mail = Mailbox(self)
        self.obs_pub = self.create_publisher(msg.Observation, "/bench/observation", 10)
        self.wbc_pub = self.create_publisher(msg.WbcRequest, "/bench/wbc/request", 10)
        # Transient local, deep: a recorder that joins late still gets the whole episode.
        self.state_pub = self.create_publisher(msg.WorldState, "/bench/world_state", QoSProfile(
            depth=1000, reliability=ReliabilityPolicy.RELIABLE,
            durability=DurabilityPolicy.TRANSIENT_LOCAL))
        self.clock_pub = self.create_publisher(Clock, "/clock", 10)
        for kind, cls, topic in (("action", msg.PolicyAction, "/bench/action"),
                                 ("targets", msg.JointTargets, "/bench/wbc/targets"),
                                 ("status", msg.TaskStatus, "/bench/task_status")):
            self.create_subscription(cls, topic, lambda m, k=kind: self.mail.deliver(k, m), 10,
                                     callback_group=self.mail.group)
        self.create_service(srv.Reset, "/bench/reset", self._reset,
                            callback_group=self.mail.group)
        self.episode = 0  # bumps on every reset, so an old episode loop stops

    def _stamp(self):
        seconds = self.session.world.data.time
        return rclpy.time.Time(seconds=seconds).to_msg()

    def _publish_clock(self) -> None:
        self.clock_pub.publish(Clock(clock=self._stamp()))

    async def _lower(self, seed: int, wbc_step: int, reset: bool):
        s = self.session
        request = convert.wbc_request(s.robot_state(), s.base_command, s.arm_targets, seed,
                                      wbc_step, reset)
        self.wbc_pub.publish(request)
        answer = await self.mail.wait("targets", seed, wbc_step, self.p["wbc_timeout"],
                                      lambda: self.wbc_pub.publish(request))
        return None if answer is None else convert.targets_from(answer)

    async def _reset(self, request, response):
        self.episode += 1
        seed = int(request.seed)
        self.session.start(seed)
        for k in range(self.config.controller.reset_warmup_steps):
            lower = await self._lower(seed, k, reset=k == 0)
            if lower is None:
                response.ok, response.message = False, (
                    f"{GRAPH_FAILURE}wbc node did not answer within {self.p['wbc_timeout']} s "
                    "during the reset warmup; is it running on this ROS_DOMAIN_ID?")
                return response
            self.session.physics(lower)
            self._publish_clock()
        self.session.settle()
        observation = self.session.observe(0.0)
        response.observation = convert.observation_msg(observation, seed, 0, self._stamp(),
                                                       self.cameras)
        response.ok, response.message = True, f"reset to seed {seed}"
        self.executor.create_task(self._run, seed, self.episode, response.observation)
        return response

    def _world_state(self, seed: int, step: int, abort: str = "") -> msg.WorldState:
        data = self.session.world.data
        out = msg.WorldState(seed=seed, control_step=step, sim_time=data.time, qpos=data.qpos,
                             qvel=data.qvel, warnings=self.session.new_warnings(),
                             abort_reason=abort)
        out.header.stamp = self._stamp()
        self.state_pub.publish(out)
        return out

    async def _run(self, seed: int, episode: int, first: msg.Observation) -> None:
        s, step = self.session, 0
        wbc_step = self.config.controller.reset_warmup_steps
        observation = first
        while episode == self.episode:
            self.obs_pub.publish(observation)
            self._publish_clock()
            action = await self.mail.wait("action", seed, step, self.p["action_timeout"],
                                          lambda o=observation: self.obs_pub.publish(o))
            if episode != self.episode:
                return
            abort = ""
            if action is None:
                abort = (f"policy silent: no action for control step {step} within "
                         f"{self.p['action_timeout']} s")
            else:
                try:
                    s.apply_action(action.action)
                except ValueError as error:
                    abort = f"bad action at control step {step}: {error}"
            if not abort:
                lower = await self._lower(seed, wbc_step, reset=False)
                if lower is None:
                    abort = (f"{GRAPH_FAILURE}wbc node silent: no targets for control step "
                             f"{step} within {self.p['wbc_timeout']} s")
                else:
                    s.physics(lower)
                    wbc_step += 1
                    step += 1
            state = self._world_state(seed, step, abort)
            status = await self.mail.wait("status", seed, step, self.p["status_timeout"],
                                          lambda s=state: self.state_pub.publish(s))
            if status is None:
                self.get_logger().error(f"task_monitor_node silent at control step {step}")
                return
            if status.done or abort:
                return
            progress = min(1.0, status.held_steps / self.hold)
            observation = convert.observation_msg(s.observe(progress), seed, step, self._stamp(),
                                                  self.cameras)


NODE = SimNode  # the class that `bench launch --composed` instantiates


def main() -> None:
    """Run the simulator node until shutdown."""
    raise SystemExit(run_nodes([SimNode]))


if __name__ == "__main__":
    main()
