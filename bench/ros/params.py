"""Parameter helpers shared by the node shells."""

from __future__ import annotations

import json
from typing import Any

from rcl_interfaces.msg import ParameterDescriptor
from rclpy.node import Node

from bench import config as cfg
from bench.env import official_config


def declare(node: Node, **defaults: Any) -> dict[str, Any]:
    """Declare parameters with their defaults and return their values, coerced to the
    default's type (launch passes every value as a string)."""
    values = {}
    for name, default in defaults.items():
        node.declare_parameter(name, default, ParameterDescriptor(dynamic_typing=True))
        value = node.get_parameter(name).value
        if isinstance(default, bool) and isinstance(value, str):
            value = value.strip().lower() in ("1", "true", "yes", "on")
        elif default is not None and not isinstance(value, type(default)):
            value = type(default)(value)
        values[name] = value
    return values


def episode_config(task: str, wbc_backend: str, overrides_json: str) -> cfg.EnvConfig:
    """The task's official config with the graph's backend choice and JSON overrides."""
    overrides = json.loads(overrides_json or "{}")
    controller = dict(overrides.pop("controller", None) or {})
    if wbc_backend:
        controller["backend"] = wbc_backend
    config = cfg.apply_overrides(official_config(task), {**overrides, "controller": controller})
    config.validate()
    return config
