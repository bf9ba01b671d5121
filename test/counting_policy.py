"""A policy that counts its resets and calls (test_eval.py)."""

import numpy as np

RESETS: list[int] = []


class Counting:
    """Holds still; records each reset."""

    def __init__(self, dim: int):
        self.dim = dim
        self.calls = 0

    def reset(self) -> None:
        RESETS.append(self.calls)

    def __call__(self, observation):
        self.calls += 1
        return np.zeros(self.dim, np.float32)


def make(task: str) -> Counting:
    from bench.tasks import get_spec

    return Counting(get_spec(task).action_dim)
