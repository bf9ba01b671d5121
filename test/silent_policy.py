"""A policy that never answers in time (test_graph.py): its first call blocks."""

import time


def make():
    """Return a policy that sleeps far past any action timeout."""
    def policy(observation):
        time.sleep(60)
        raise RuntimeError("unreachable in the test")
    return policy
