"""Recording the graph's topics to MCAP, one file per episode, readable by the ``mcap``
tools and rosbag2 (schemas in ``ros2msg`` text, messages in CDR as on the wire)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from mcap.writer import Writer
from rclpy.node import Node
from rosgraph_msgs.msg import Clock

from bench import msg

TOPICS: dict[str, type] = {
    "/bench/observation": msg.Observation,
    "/bench/action": msg.PolicyAction,
    "/bench/wbc/request": msg.WbcRequest,
    "/bench/wbc/targets": msg.JointTargets,
    "/bench/world_state": msg.WorldState,
    "/bench/task_status": msg.TaskStatus,
    "/clock": Clock,
}
_SEPARATOR = "=" * 80
_PRIMITIVES = {"bool", "byte", "char", "float32", "float64", "int8", "uint8", "int16", "uint16",
               "int32", "uint32", "int64", "uint64", "string", "wstring"}


def type_name(cls: type) -> str:
    """``package/msg/Type`` of a message class."""
    module = cls.__module__.split(".")
    return f"{module[0]}/msg/{cls.__name__}"


def _definition(package: str, name: str) -> str:
    """The .msg text of a type, from a ROS 2 distribution's prefixes or, with the pip
    wheels (no AMENT_PREFIX_PATH), from this interpreter's prefix."""
    prefixes = [p for p in os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep) if p]
    prefixes.append(sys.prefix)
    for prefix in prefixes:
        path = Path(prefix) / "share" / package / "msg" / f"{name}.msg"
        if path.is_file():
            return path.read_text()
    raise FileNotFoundError(f"no definition of {package}/msg/{name} under {prefixes}")


def _field_types(text: str, package: str) -> list[tuple[str, str]]:
    """(package, Type) of every non-primitive field type in a .msg definition."""
    found = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or "=" in line.split()[0]:
            continue
        base = line.split()[0].split("[")[0].split("<")[0]
        if base in _PRIMITIVES:
            continue
        pkg, _, typ = base.rpartition("/")
        found.append((pkg or package, typ))
    return found


def schema_text(cls: type) -> str:
    """The full ``ros2msg`` schema: the type's definition, then each dependency once."""
    package, _, name = type_name(cls).split("/")
    parts = [_definition(package, name)]
    seen, queue = set(), _field_types(parts[0], package)
    while queue:
        pkg, typ = queue.pop(0)
        if (pkg, typ) in seen:
            continue
        seen.add((pkg, typ))
        text = _definition(pkg, typ)
        parts.append(f"{_SEPARATOR}\nMSG: {pkg}/{typ}\n{text}")
        queue += _field_types(text, pkg)
    return "\n".join(parts)


class EpisodeRecorder:
    """Raw subscriptions to the graph's topics, written into the current episode's file."""

    def __init__(self, node: Node, folder: Path, callback_group: Any = None):
        self.node = node
        self.folder = Path(folder)
        self._writer: Writer | None = None
        self._file: Any = None
        self._channels: dict[str, int] = {}
        for topic, cls in TOPICS.items():
            node.create_subscription(cls, topic, lambda data, t=topic: self._write(t, data), 100,
                                     raw=True, callback_group=callback_group)

    def start(self, seed: int) -> None:
        """Open ``mcap/episode_<seed>.mcap`` and register every topic."""
        self.stop()
        self.folder.mkdir(parents=True, exist_ok=True)
        self._file = (self.folder / f"episode_{seed}.mcap").open("wb")
        self._writer = Writer(self._file)
        self._writer.start(profile="ros2", library="bench")
        self._channels = {}
        for topic, cls in TOPICS.items():
            schema = self._writer.register_schema(type_name(cls), "ros2msg",
                                                  schema_text(cls).encode())
            self._channels[topic] = self._writer.register_channel(topic, "cdr", schema)

    def _write(self, topic: str, data: bytes) -> None:
        if self._writer is None:
            return
        now = self.node.get_clock().now().nanoseconds
        self._writer.add_message(self._channels[topic], log_time=now, data=bytes(data),
                                 publish_time=now)

    def stop(self) -> None:
        """Finish the current file, if any."""
        if self._writer is not None:
            self._writer.finish()
            self._file.close()
            self._writer, self._file = None, None
