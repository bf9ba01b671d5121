"""Waiting for one answer in a lockstep graph, without blocking the executor.

A node's coroutine callback awaits ``Mailbox.wait(kind, seed, step, timeout)``; the
subscription callbacks call ``deliver``. A wall-clock timer resolves the wait with None
when the answer does not come, so a silent or dead node never hangs the graph.

A suspended coroutine keeps its callback group busy, so every entity involved (the
service or timer running the coroutine, the subscriptions, the timeout timers) must be
in a reentrant group: ``Mailbox.group``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rclpy.callback_groups import CallbackGroup, ReentrantCallbackGroup
from rclpy.clock import Clock, ClockType
from rclpy.node import Node
from rclpy.task import Future
from rclpy.timer import Timer

# Abort reasons that blame the graph, not the policy, start with this: the evaluator does
# not record such an episode (a resumed run plays it again) and exits non-zero.
GRAPH_FAILURE = "graph failure: "
RESEND_PERIOD = 0.5  # s between repeats of an unanswered request


def wall_timer(node: Node, period: float, callback: Callable[[], None],
               group: CallbackGroup | None = None) -> Timer:
    """A timer on the steady wall clock. The graph's nodes keep time on /clock (sim
    time), which stands still while a node waits, so timeouts must not use it."""
    return node.create_timer(period, callback, callback_group=group,
                             clock=Clock(clock_type=ClockType.STEADY_TIME))


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

    async def wait(self, kind: str, seed: int, step: int, timeout: float,
                   resend: Callable[[], None] | None = None) -> Any:
        """The message of ``kind`` for (seed, step), or None after ``timeout`` seconds.

        ``resend`` re-publishes the request every RESEND_PERIOD seconds until the answer
        comes: a message sent before DDS has matched the peer is lost, and answering nodes
        reply to a repeated request with their cached answer, so this changes nothing else.
        """
        future: Future[Any] = Future()
        self._pending[kind] = (seed, step, future)

        def expire() -> None:
            if not future.done():
                future.set_result(None)

        timers = [wall_timer(self.node, timeout, expire, self.group)]
        if resend is not None:
            timers.append(wall_timer(self.node, RESEND_PERIOD, resend, self.group))
        try:
            return await future
        finally:
            for timer in timers:
                self.node.destroy_timer(timer)
            self._pending.pop(kind, None)


class AnswerCache:
    """The last answer of a node, keyed by its request, so a repeated request gets the
    same answer without running a stateful controller, policy or monitor twice."""

    def __init__(self) -> None:
        self.key: tuple[Any, ...] | None = None
        self.value: Any = None

    def answer(self, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        """The answer for ``key``: the cached one for a repeated request, else
        ``compute()``, remembered."""
        if key != self.key:
            self.key, self.value = key, compute()
        return self.value
