"""A one-process ROS 2 round trip: publish a WholeBodyCommand and receive it back.

Run as ``python -m bench.ros.loopback``; `bench selftest` uses it to show that the
ROS 2 wheels and the generated interfaces work on this machine.
"""

from __future__ import annotations

import sys
import time

import rclpy

from bench.msg import WholeBodyCommand


def round_trip(timeout: float = 10.0) -> float:
    """Publish one command on a private topic; return the round-trip time in seconds."""
    context = rclpy.Context()
    rclpy.init(context=context)
    node = rclpy.create_node("bench_loopback", context=context)
    try:
        received: list[WholeBodyCommand] = []
        node.create_subscription(WholeBodyCommand, "bench_loopback/command", received.append, 10)
        publisher = node.create_publisher(WholeBodyCommand, "bench_loopback/command", 10)
        executor = rclpy.executors.SingleThreadedExecutor(context=context)
        executor.add_node(node)
        sent = WholeBodyCommand(control_step=1, vx=0.25, grippers=[0.0, 1.0])
        start = time.perf_counter()
        deadline = start + timeout
        while not received and time.perf_counter() < deadline:
            publisher.publish(sent)
            executor.spin_once(timeout_sec=0.05)
        if not received:
            raise TimeoutError("no WholeBodyCommand came back within the timeout")
        if received[0].vx != sent.vx or list(received[0].grippers) != [0.0, 1.0]:
            raise AssertionError("the received command differs from the sent one")
        return time.perf_counter() - start
    finally:
        node.destroy_node()
        rclpy.shutdown(context=context)


if __name__ == "__main__":
    print(f"{round_trip() * 1e3:.1f} ms")
    sys.exit(0)
