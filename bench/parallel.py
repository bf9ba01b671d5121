"""Episodes in worker processes: the seeds of one task and policy spread over a pool.

Each worker is a spawned process that builds its own env (``make(task, config)``, the
caller's resolved configuration) and policy (``load_policy(spec, task)``) once, then
runs one seed at a time. Results come back in seed order, so a parallel run yields
what the sequential loop yields, provided each episode depends only on its seed: the
env resets from the seed, and the policy's ``reset()`` must restore its state (true
of the scripted experts and of any stateless policy; a policy that carries state from
one episode to the next gives different episodes in a different order). Spawned
rather than forked, so no worker inherits a parent's MuJoCo or EGL context.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from functools import partial
from typing import Any, TypeVar

from bench.config import EnvConfig

Result = TypeVar("Result")
# A job runs one seed on a worker's env and policy; it must be a module-level function.
Job = Callable[[Any, Any, int], Result]

_WORKER: dict[str, Any] = {}


def _start_worker(task: str, policy: str, config: EnvConfig) -> None:
    """Build this worker's env and policy (the pool's initializer)."""
    from bench.env import make
    from bench.policies import load_policy

    _WORKER["env"] = make(task, config)
    _WORKER["policy"] = load_policy(policy, task)


def _run_job(job: Job[Result], seed: int) -> Result:
    return job(_WORKER["env"], _WORKER["policy"], seed)


def check_workers(workers: int) -> None:
    """ValueError unless ``workers`` is a usable process count (1 runs in this process)."""
    if workers < 1:
        raise ValueError(f"workers={workers}: give 1 or more worker processes")


@contextmanager
def seed_pool(task: str, policy: str, config: EnvConfig, workers: int
              ) -> Iterator[Callable[[Job[Result], Iterable[int]], Iterator[Result]]]:
    """A pool of ``workers`` processes for ``task`` with the env configuration
    ``config`` and the ``module:factory`` policy spec; yields ``run(job, seeds)``, an
    iterator of ``job(env, policy, seed)`` in seed order. Leaving the block cancels the
    seeds not yet started."""
    check_workers(workers)
    if not isinstance(policy, str):
        raise ValueError("worker processes load the policy themselves: give it as a "
                         "module:factory string")
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker,
                               initargs=(task, policy, config))
    try:
        yield lambda job, seeds: pool.map(partial(_run_job, job), seeds)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
