#!/usr/bin/env python3
"""Evaluator node: steps through the seeds. For each it calls ``/bench/reset``, follows
``/bench/task_status`` to the end of the episode and writes the episode's summary; at
the end it writes ``record.json`` and exits. Seeds whose summary already exists in the
output directory are kept, not rerun (resume). If a graph node disappears it reports
which, keeps the finished episodes, and exits non-zero."""

from __future__ import annotations

import time
from pathlib import Path

from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.node import Node
from rclpy.task import Future

from bench import msg, srv
from bench.eval.episode import result_from
from bench.eval.records import (
    EpisodeResult,
    MetricTracker,
    read_summary,
    summary_path,
    write_metrics,
    write_summary,
)
from bench.eval.run import eval_seeds, write_record, write_timing
from bench.ros.lockstep import GRAPH_FAILURE, wall_timer
from bench.ros.mcap_recorder import EpisodeRecorder
from bench.ros.params import declare, episode_config
from bench.ros.spin import run_nodes

NODE_DIED = 3  # exit code when a graph node disappears


class EvaluatorNode(Node):
    """Sequences seeds through the graph and records results."""

    def __init__(self, node_name: str = "evaluator", **kwargs):
        super().__init__(node_name, **kwargs)
        p = declare(self, task="flip_cup", method="bench-graph", episodes=3, seed_start=620000,
                    output_dir="runs/latest", wbc_backend="", overrides="{}",
                    watch_nodes="sim,wbc,task_monitor,policy", reset_timeout=120.0,
                    record=False)
        self.p = p
        self.config = episode_config(p["task"], p["wbc_backend"], p["overrides"])
        self.run_dir = Path(p["output_dir"])
        self.watch = [name for name in p["watch_nodes"].split(",") if name]
        self.seen: set[str] = set()
        self.results: list[EpisodeResult] = []
        self.timing: dict[int, dict[str, float]] = {}
        self.exit_code: int | None = None
        group = ReentrantCallbackGroup()  # the seed loop is a coroutine; see bench.ros.lockstep
        self.client = self.create_client(srv.Reset, "/bench/reset", callback_group=group)
        self.status_sub = self.create_subscription(msg.TaskStatus, "/bench/task_status",
                                                   self._status, 100, callback_group=group)
        self.recorder = (EpisodeRecorder(self, self.run_dir / "mcap", group)
                         if p["record"] else None)
        self.done: Future | None = None
        self.seed: int | None = None
        self.tracker = MetricTracker()
        wall_timer(self, 0.5, self._watchdog, group)
        self._start = wall_timer(self, 0.1, self._kickoff, group)

    def _kickoff(self) -> None:
        # Start once the reset service is up and the monitor's status reaches us, so no
        # episode's final status can be lost to DDS discovery.
        if not self.client.service_is_ready() or self.status_sub.get_publisher_count() == 0:
            return
        self.destroy_timer(self._start)
        self.executor.create_task(self._run)

    def _watchdog(self) -> None:
        present = set(self.get_node_names())
        self.seen |= present & set(self.watch)
        dead = sorted(name for name in self.seen if name not in present)
        if dead and self.exit_code is None:
            self.get_logger().error(
                f"graph node(s) died: {', '.join(dead)}; keeping {len(self.results)} finished "
                f"episode(s) in {self.run_dir}")
            self._finish(NODE_DIED)

    def _status(self, status: msg.TaskStatus) -> None:
        if status.seed != self.seed:
            return
        metrics = {m.name: m.value for m in status.metrics}
        if status.control_step > len(self.tracker.rows):  # once per control step
            self.tracker.update(status.control_step, metrics, status.held_steps, status.fell)
        if status.done and self.done is not None and not self.done.done():
            self.done.set_result(status)

    async def _run(self) -> None:
        for seed in eval_seeds(self.p["episodes"], self.p["seed_start"]):
            finished = summary_path(self.run_dir, seed)
            if finished.exists():  # resume: this episode finished in an earlier run
                self.results.append(read_summary(finished))
                continue
            self.seed, self.tracker, self.done = seed, MetricTracker(), Future()
            if self.recorder is not None:
                self.recorder.start(seed)
            start = time.perf_counter()
            response = await self.client.call_async(srv.Reset.Request(seed=seed))
            reset_done = time.perf_counter()
            if self.exit_code is not None:
                return
            if not response.ok:
                self.get_logger().error(f"reset to seed {seed} failed: {response.message}")
                self._finish(NODE_DIED if response.message.startswith(GRAPH_FAILURE) else 1)
                return
            status = await self.done
            if self.recorder is not None:
                self.recorder.stop()
            if self.exit_code is not None:
                return
            if status.reason.startswith(GRAPH_FAILURE):
                self.get_logger().error(f"seed {seed} not recorded: {status.reason}")
                self._finish(NODE_DIED)
                return
            result = result_from(
                self.p["task"], seed, task_success=status.success, fell=status.fell,
                termination=status.termination, reason=status.reason,
                control_steps=status.control_step,
                env_steps=status.control_step * self.config.demo_down_sample_rate,
                tracker=self.tracker)
            write_metrics(self.run_dir, seed, self.tracker.rows)
            write_summary(self.run_dir, result)
            self.results.append(result)
            self.timing[seed] = {"reset_s": reset_done - start,
                                 "steps_s": time.perf_counter() - reset_done,
                                 "control_steps": result.control_steps}
            self.get_logger().info(f"seed {seed}: {result.termination}")
        self._finish(0)

    def _finish(self, code: int) -> None:
        write_record(self.run_dir, self.results, self.p["task"], self.p["method"])
        write_timing(self.run_dir, self.timing)
        self.exit_code = code
        if self.done is not None and not self.done.done():
            self.done.cancel()


NODE = EvaluatorNode  # the class that `bench launch --composed` instantiates


def main() -> None:
    """Run the evaluator node until it has finished or a graph node died."""
    raise SystemExit(run_nodes([EvaluatorNode]))


if __name__ == "__main__":
    main()
