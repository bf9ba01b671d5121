"""Waiting for one answer in a lockstep graph, without blocking the executor.

A node's coroutine callback awaits ``Mailbox.wait(kind, seed, step, timeout)``; the
subscription callbacks call ``deliver``. A wall-clock timer resolves the wait with None
when the answer does not come, so a silent or dead node never hangs the graph.

A suspended coroutine keeps its callback group busy, so every entity involved (the
service or timer running the coroutine, the subscriptions, the timeout timers) must be
in a reentrant group: ``Mailbox.group``.
"""

from __future__ import annotations

from typing import Any

from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.node import Node
from rclpy.task import Future


class Mailbox:
    """One pending wait per message kind, matched on (seed, control step)."""

    def __init__(self, node: Node):
        self.node = node
        self.group = ReentrantCallbackGroup()
        self._pending: dict[str, tuple[int, int, Future]] = {}

    def deliver(self, kind: str, message: Any) -> None:
        """Hand a received message to the matching wait, if any; stale ones are dropped."""
        pending = self._pending.get(kind)
        if pending is None:
            return
        seed, step, future = pending
        if message.seed == seed and message.control_step == step and not future.done():
            future.set_result(message)

    async def wait(self, kind: str, seed: int, step: int, timeout: float) -> Any:
        """The message of ``kind`` for (seed, step), or None after ``timeout`` seconds."""
        future: Future[Any] = Future()
        self._pending[kind] = (seed, step, future)

        def expire() -> None:
            if not future.done():
                future.set_result(None)

        timer = self.node.create_timer(timeout, expire, callback_group=self.group)
        try:
            return await future
        finally:
            self.node.destroy_timer(timer)
            self._pending.pop(kind, None)
