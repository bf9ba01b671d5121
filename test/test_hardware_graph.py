"""The hardware path end to end: policy -> WBC -> g1_bridge -> DDS -> mock G1 (MuJoCo)
-> DDS -> g1_bridge -> graph, free-running, as ``driver:=mock_g1`` starts it, with the
mock robot on a bare floor (the task's table would be in the way of a 2 m walk). Each
test uses its own ROS_DOMAIN_ID and its own unitree DDS domain (ROS domain - 100) over
loopback. The mock robot's trace gives sim time, pelvis and damping switches."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest
import walk_policy

from bench import graph as graph_description
from bench.launcher import node_command, stop_processes

rclpy = pytest.importorskip("rclpy", reason="the ROS 2 wheels (ros-rclpy) are not installed")

TEST_DIR = str(Path(__file__).parent)
NO_CAMERAS = '{"camera_keys": []}'  # the bridge has no cameras
STOOD_Z = 0.45  # m; the pelvis above this and tilted less than STOOD_TILT counts as standing
STOOD_TILT = 20.0  # degrees
CROUCH_TOLERANCE = (0.02, 0.05)  # m, rad: the crouch is held this close to its command
# The mock robot runs at half real time: the graph's processes then have twice the
# robot-clock headroom on a loaded 2-core host (the heartbeats and all the checks
# here are in sim time).
RATE = 0.5
# The LowState_ watchdog runs on the wall clock (100 ms on a real G1). Here the "robot"
# is a process on the same loaded host, whose LowState_ stream pauses whenever that
# process is descheduled (seen: 103-105 ms pauses in full-suite runs), which is no robot
# fault; the tests give it a second.
LOWSTATE_TIMEOUT = 1.0


def _env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (TEST_DIR, os.environ.get("PYTHONPATH")) if p)
    return dict(os.environ, PYTHONPATH=path)


class MockGraph:
    """The driver:=mock_g1 graph, one process per node, and the mock robot's trace."""

    def __init__(self, ros_domain: int, tmp_path: Path, policy: str, rate: float = RATE):
        self.trace = tmp_path / "mock_trace.jsonl"
        arguments = graph_description.parse_arguments(
            ["driver:=mock_g1", "task:=flip_cup", "mock_scene:=none", f"mock_rate:={rate}",
             f"policy:={policy}", f"overrides:={NO_CAMERAS}",
             f"dds_domain:={ros_domain - 100}", f"mock_trace:={self.trace}",
             f"lowstate_timeout:={LOWSTATE_TIMEOUT}"], graph_description.load_graph())
        self.nodes = {n.name: n for n in graph_description.plan(arguments)}
        self.logs = {name: (tmp_path / f"{name}.log").open("w") for name in self.nodes}
        self.killed: set[str] = set()
        self.processes = {name: subprocess.Popen(node_command(n), env=_env(),
                                                 stdout=self.logs[name],
                                                 stderr=subprocess.STDOUT)
                          for name, n in self.nodes.items()}

    def arm(self, timeout: float = 120.0) -> str:
        """Call /bench/bridge/arm until it is granted (the nodes take a while to start)."""
        from std_srvs.srv import Trigger
        rclpy.init()
        node = rclpy.create_node("test_arm")
        try:
            client = node.create_client(Trigger, "/bench/bridge/arm")
            deadline, message = time.monotonic() + timeout, "no answer"
            while time.monotonic() < deadline:
                if client.wait_for_service(timeout_sec=1.0):
                    future = client.call_async(Trigger.Request())
                    rclpy.spin_until_future_complete(node, future, timeout_sec=5.0)
                    if future.result() is not None:
                        message = future.result().message
                        if future.result().success:
                            return message
                time.sleep(0.5)
            raise AssertionError(f"the bridge never armed: {message}")
        finally:
            node.destroy_node()
            rclpy.shutdown()

    def task_status(self, timeout: float = 30.0):
        """One /bench/task_status message of the free-running task monitor."""
        from bench import msg
        rclpy.init()
        node = rclpy.create_node("test_status")
        received: list = []
        try:
            node.create_subscription(msg.TaskStatus, "/bench/task_status", received.append, 10)
            deadline = time.monotonic() + timeout
            while not received and time.monotonic() < deadline:
                rclpy.spin_once(node, timeout_sec=0.1)
            assert received, "no /bench/task_status from the free-running task monitor"
            return received[-1]
        finally:
            node.destroy_node()
            rclpy.shutdown()

    def lines(self) -> list[dict]:
        """The trace so far (a partly written last line is left out)."""
        if not self.trace.exists():
            return []
        out = []
        for line in self.trace.read_text().splitlines():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                break
        return out

    def wait_for(self, predicate, timeout: float, what: str) -> list[dict]:
        """Poll the trace until ``predicate(lines)`` holds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            lines = self.lines()
            if predicate(lines):
                return lines
            dead = [n for n, p in self.processes.items()
                    if p.poll() is not None and n not in self.killed]
            assert not dead, f"node(s) {dead} exited: " + self.log_tail(dead[0])
            time.sleep(0.5)
        raise AssertionError(f"timed out waiting for {what}; bridge log: "
                             + self.log_tail("g1_bridge"))

    def log_tail(self, name: str) -> str:
        """The last lines a node printed."""
        self.logs[name].flush()
        return Path(self.logs[name].name).read_text()[-3000:]

    def stop(self) -> None:
        """SIGINT the bridge (it sends damping as it exits), then the other nodes."""
        stop_processes([self.processes["g1_bridge"]], signal.SIGINT, timeout=20)
        stop_processes(self.processes.values(), signal.SIGINT, timeout=20)
        for log in self.logs.values():
            log.close()


def _pelvis(lines: list[dict]) -> list[dict]:
    return [line for line in lines if "z" in line]


def _distance(a: dict, b: dict) -> float:
    return float(np.hypot(b["x"] - a["x"], b["y"] - a["y"]))


def _released_at(lines: list[dict]) -> float | None:
    """Sim time the mock G1 stands settled on its own: 1 s after its gantry let go."""
    released = [line["t"] for line in lines if line.get("event") == "released"]
    return released[0] + 1.0 if released else None


def _post_mortem(graph: MockGraph, lines: list[dict], start: float) -> str:
    """What a failed stand-and-walk run shows: when the pelvis first went low, in which
    phase, the robot's lags and switches, and the bridge's WBC round trips."""
    low = [p for p in _pelvis(lines) if p["t"] > start and p["z"] < STOOD_Z]
    fell = (f"pelvis at {low[0]['z']:.3f} m, tilt {low[0]['tilt']:.1f} deg, "
            f"{low[0]['t'] - start:.2f} s of sim time after settling "
            f"({'standing' if low[0]['t'] < start + 30.0 else 'walking'})") if low else ""
    events = [(e["t"], e["event"], e.get("seconds")) for e in lines if "event" in e]
    return (f"{fell}; robot events (sim s, event, lag s): {events}; "
            f"load average {os.getloadavg()}; bridge log: " + graph.log_tail("g1_bridge"))


# A free-running graph of five processes on a shared 2-core host: one rerun, so that a
# host hiccup costs a rerun while a regression fails both. A failure's message carries
# the post-mortem (the first CI fall, at stop 24, had only "the mock G1 fell").
def _in_crouch(p: dict) -> bool:
    return (abs(p["z"] - walk_policy.CROUCH_HEIGHT) <= CROUCH_TOLERANCE[0]
            and abs(p["pitch"] - walk_policy.CROUCH_PITCH) <= CROUCH_TOLERANCE[1])


@pytest.mark.flaky(reruns=1)
def test_mock_g1_crouches_30_s_walks_2_m_and_crouches_again(ros_domain, tmp_path):
    """The policy asks for a 0.60 m stance leaning 0.3 rad, a 7 s walk at 0.5 m/s, and
    the stance again: the embedded default's standing controller holds it on the
    hardware path (joint states and IMU only), walks, and comes back to it."""
    graph = MockGraph(ros_domain, tmp_path, "walk_policy:stand_34s_walk_7s")
    try:
        assert graph.arm() == "armed"

        def crouched_again(lines):
            start = _released_at(lines)
            if start is None:
                return False
            assert not any(e.get("event") == "damping" and e["t"] > start for e in lines), \
                "damping while standing or walking: " + _post_mortem(graph, lines, start)
            assert not any(p["z"] < STOOD_Z for p in _pelvis(lines) if p["t"] > start), \
                "the mock G1 fell: " + _post_mortem(graph, lines, start)
            after = [p for p in _pelvis(lines) if p["t"] >= start + 30.0]
            back = [p for p in after if p["t"] >= after[0]["t"] + 12.0] if after else []
            return bool(back) and back[-1]["t"] - back[0]["t"] >= 2.0

        lines = graph.wait_for(crouched_again, timeout=600,
                               what="30 s crouched, a walk, and 2 s crouched again")
    finally:
        graph.stop()
    released = _released_at(lines)
    pelvis = _pelvis(lines)
    # ppo holds the robot until it is still on its feet; then the stance engages and
    # its goal ramps down at 0.25 m/s: 5 s allowed for both.
    standing = [p for p in pelvis if released + 5.0 <= p["t"] <= released + 30.0]
    assert standing[-1]["t"] - standing[0]["t"] >= 24.9
    assert all(_in_crouch(p) for p in standing), \
        "the mock G1 did not hold 0.60 m and 0.3 rad: " + str(
            [p for p in standing if not _in_crouch(p)][:3])
    later = [p for p in pelvis if p["t"] >= released + 30.0]
    assert all(p["z"] > STOOD_Z and p["tilt"] < STOOD_TILT for p in later), "it fell"
    assert _distance(later[0], later[-1]) >= 2.0
    back = [p for p in later if p["t"] >= later[0]["t"] + 12.0]
    assert all(_in_crouch(p) for p in back), "not back in the crouch: " + str(back[:3])
    assert not any(line.get("event") == "damping" for line in lines
                   if line["t"] > released), "the bridge went to damping while walking"
    events = [e["event"] for e in graph.lines() if "event" in e and e["event"] != "lag"]
    assert events[-1] == "damping", "no damping after the bridge was stopped (clean shutdown)"


# The 70 ms policy and WBC heartbeats count robot time from each request to its
# answer, so at mock_rate 0.5 a 140 ms stall of the host (of the answering node, or of
# the bridge's executor that reads the answer) before the kill trips them by itself.
# At 0.25 that still happened in loaded full-suite runs (a live WBC "silent for 0.072 s"
# 0.35 s of sim time after arming, with the load average near 10). This test runs the
# robot at a tenth of real time, so only a 700 ms stall does; all its checks are in sim
# time. One rerun on top: a regression fails both.
KILL_RATE = 0.1


@pytest.mark.flaky(reruns=1)
@pytest.mark.parametrize("victim", ["policy", "wbc"])
def test_killing_a_graph_node_puts_the_mock_g1_into_damping_within_100_ms(
        ros_domain, tmp_path, victim):
    graph = MockGraph(ros_domain, tmp_path, "bench.policies.builtin:hold", KILL_RATE)
    try:
        graph.arm()
        lines = graph.wait_for(
            lambda ls: _released_at(ls) is not None
            and any(p["t"] > _released_at(ls) + 1.0 for p in _pelvis(ls)),
            timeout=120, what="the mock G1 standing on its own")
        status = graph.task_status()  # flip_cup's cup has no mocap pose here
        killed_wall = time.time()
        graph.processes[victim].kill()
        graph.killed.add(victim)
        lines = graph.wait_for(
            lambda ls: any(e.get("event") == "damping" and e["w"] > killed_wall for e in ls),
            timeout=30, what="damping after the kill")
    finally:
        graph.stop()
    # The kill's sim time, interpolated between the trace lines written around it.
    pairs = np.array([(line["w"], line["t"]) for line in _pelvis(lines)])
    killed_sim = float(np.interp(killed_wall, pairs[:, 0], pairs[:, 1]))
    damped_sim = min(e["t"] for e in lines
                     if e.get("event") == "damping" and e["w"] > killed_wall)
    delay = damped_sim - killed_sim
    (tmp_path / "damping_delay.txt").write_text(f"{delay * 1000:.1f} ms of sim time\n")
    assert 0.0 < delay <= 0.100, f"damping {delay * 1000:.0f} ms of sim time after the kill"
    stood = [p for p in _pelvis(lines) if _released_at(lines) <= p["t"] <= killed_sim]
    assert np.all([p["z"] > STOOD_Z for p in stood])  # it was standing when it happened
    assert not status.fell and not status.done  # upright by the IMU, nothing to decide
    assert status.reason.startswith("predicate unavailable") and "cup" in status.reason
    assert {m.name: m.value for m in status.metrics} == {"predicate_available": 0.0}
