"""Policies: loading ``module:factory`` specs, and the built-in ones.

A policy is any callable from an observation dict to a normalized action; it may have
a ``reset()`` that runs between episodes. A factory returns a policy; it is called
with the task name when it accepts an argument (``factory(task)``), else with none.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

Policy = Callable[[dict[str, Any]], Any]


def load_policy(spec: str, task: str) -> Policy:
    """Import ``module:factory`` and build the policy for ``task``.

    Raises ValueError naming the spec when it is malformed or does not resolve.
    """
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"policy {spec!r} is not of the form module:factory, "
                         "e.g. bench.policies.builtin:hold")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"policy {spec!r}: cannot import {module_name!r} ({error})") from error
    factory = getattr(module, attr, None)
    if factory is None or not callable(factory):
        raise ValueError(f"policy {spec!r}: {module_name} has no callable {attr!r}")
    takes_task = bool(inspect.signature(factory).parameters)
    policy = factory(task) if takes_task else factory()
    if not callable(policy):
        raise ValueError(f"policy {spec!r}: the factory returned {policy!r}, not a callable")
    return policy
