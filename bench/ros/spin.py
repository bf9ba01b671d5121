"""Running node shells: one node per process, or several composed in one process.

A single-threaded executor, looped with spin_once (EventsExecutor.spin hangs with the
pip wheels, and a MultiThreadedExecutor is far slower in a lockstep ping-pong). The
loop ends when rclpy shuts down or a node sets ``exit_code``.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Sequence
from typing import Any

import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node


def run_nodes(factories: Sequence[Callable[..., Node]],
              kwargs: Sequence[dict[str, Any]] | None = None,
              args: list[str] | None = None) -> int:
    """Create the nodes, spin them together, and return the first exit code a node set
    (0 when none did)."""
    rclpy.init(args=args)
    nodes: list[Node] = []
    stop = {"now": False}
    signal.signal(signal.SIGTERM, lambda *_: stop.update(now=True))
    try:
        for index, factory in enumerate(factories):
            nodes.append(factory(**(kwargs[index] if kwargs else {})))
        executor = SingleThreadedExecutor()
        for node in nodes:
            executor.add_node(node)
        while rclpy.ok() and not stop["now"]:
            executor.spin_once(timeout_sec=0.1)
            codes = [getattr(node, "exit_code", None) for node in nodes]
            if any(code is not None for code in codes):
                return next(code for code in codes if code is not None)
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        for node in nodes:
            node.destroy_node()
        rclpy.try_shutdown()
