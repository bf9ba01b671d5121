#!/usr/bin/env python3
"""Mock G1 node: the project's MuJoCo G1 behind the real robot's unitree_sdk2 DDS
interface (bench.hardware.mock_robot), on its own DDS domain over loopback. It speaks
no ROS topics (the robot does not); it is a node so that ``ros2 launch`` and
``bench launch`` start it like the others. ``python -m bench.hardware.mock_robot`` runs
the same robot without ROS."""

from __future__ import annotations

import threading
from pathlib import Path

from rclpy.node import Node

from bench.hardware.dds import DdsLink
from bench.hardware.mock_robot import MockG1
from bench.ros.params import declare
from bench.ros.spin import run_nodes


class MockG1Node(Node):
    """Runs a MockG1 in a thread for the node's lifetime."""

    def __init__(self, node_name: str = "mock_g1", **kwargs):
        super().__init__(node_name, **kwargs)
        self._stop = threading.Event()
        p = declare(self, task="", scene="task", seed=0, dds_domain=1, network_interface="lo",
                    trace="", rate=1.0)
        scene = p["task"] if p["scene"] == "task" else ""  # "none": the robot alone
        # open for the node's lifetime, closed in destroy_node
        self.trace = Path(p["trace"]).open("w") if p["trace"] else None  # noqa: SIM115
        self.robot = MockG1(DdsLink(p["dds_domain"], p["network_interface"]), scene,
                            p["seed"], trace=self.trace)
        self._thread = threading.Thread(target=self.robot.run,
                                        args=(0.0, self._stop.is_set, p["rate"]),
                                        name="mock_g1", daemon=True)
        self._thread.start()
        self.get_logger().info(f"mock G1 on DDS domain {p['dds_domain']} via "
                               f"{p['network_interface']}, scene: {scene or 'bare floor'}")

    def destroy_node(self) -> None:
        """Stop the simulation and close the trace (also after a failed start)."""
        self._stop.set()
        if hasattr(self, "_thread"):
            self._thread.join(timeout=2.0)
            if self.robot.bad_crc or self.robot.lag_warnings:
                self.get_logger().warning(f"{self.robot.bad_crc} LowCmd_ dropped (CRC or "
                                          f"mode_machine), {self.robot.lag_warnings} lag resets")
        if getattr(self, "trace", None) is not None:
            self.trace.close()
        super().destroy_node()


NODE = MockG1Node  # the class that `bench launch --composed` instantiates


def main() -> None:
    """Run the mock robot node until shutdown."""
    raise SystemExit(run_nodes([MockG1Node]))


if __name__ == "__main__":
    main()
