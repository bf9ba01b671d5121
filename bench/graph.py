"""The graph description in ``config/graph.yaml``: launch arguments and nodes.

Pure data handling (no rclpy), so the launch file, ``bench launch`` and the tests all
read the node list and parameters from this one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bench.paths import share_dir

_SUBSTITUTION = re.compile(r"\$\((\w+)\)")


@dataclass(frozen=True)
class NodePlan:
    """One node to start: its name, executable and resolved parameters (strings, except
    typed values written as such in the description, like ``use_sim_time: true``)."""

    name: str
    executable: str
    parameters: dict[str, Any] = field(default_factory=dict)
    exit_ends_graph: bool = False

    @property
    def module(self) -> str:
        """The Python module of the node shell."""
        return f"bench.nodes.{self.executable}"


def graph_file(name: str = "graph.yaml") -> Path:
    """The graph description file."""
    return share_dir() / "config" / name


def load_graph(path: Path | None = None) -> dict[str, Any]:
    """The raw graph description."""
    return yaml.safe_load((path or graph_file()).read_text())


def argument_defaults(graph: dict[str, Any]) -> dict[str, str]:
    """Launch argument name -> default value (string)."""
    return {name: str(spec["default"]) for name, spec in graph["arguments"].items()}


def parse_arguments(tokens: list[str], graph: dict[str, Any]) -> dict[str, str]:
    """``name:=value`` tokens over the defaults; an unknown name, or a value outside an
    argument's ``choices``, raises ValueError."""
    values = argument_defaults(graph)
    for token in tokens:
        name, sep, value = token.partition(":=")
        if not sep:
            raise ValueError(f"argument {token!r} is not of the form name:=value")
        if name not in values:
            raise ValueError(f"unknown launch argument {name!r}; known: {sorted(values)}")
        choices = graph["arguments"][name].get("choices")
        if choices is not None and value not in choices:
            raise ValueError(f"launch argument {name}:={value} is not one of {choices}")
        values[name] = value
    return values


def substitute(value: Any, arguments: dict[str, str]) -> Any:
    """Replace every ``$(name)`` in a string parameter by the argument's value; other
    values (booleans, numbers) pass through with their type."""
    if not isinstance(value, str):
        return value
    return _SUBSTITUTION.sub(lambda m: arguments[m.group(1)], value)


def split_substitutions(value: Any) -> list[tuple[str, str]]:
    """A parameter value as ("text", s) and ("arg", name) parts, for the launch file."""
    text, parts, last = str(value), [], 0
    for match in _SUBSTITUTION.finditer(text):
        if match.start() > last:
            parts.append(("text", text[last:match.start()]))
        parts.append(("arg", match.group(1)))
        last = match.end()
    if last < len(text):
        parts.append(("text", text[last:]))
    return parts


def starts(node: dict[str, Any], arguments: dict[str, str]) -> bool:
    """Whether a node's ``when: {argument: [values]}`` holds (no ``when``: always)."""
    return all(arguments[name] in [str(v) for v in values]
               for name, values in node.get("when", {}).items())


def plan(arguments: dict[str, str], graph: dict[str, Any] | None = None) -> list[NodePlan]:
    """The nodes to start, with parameters resolved against ``arguments``."""
    graph = graph or load_graph()
    return [NodePlan(name=node["name"], executable=node["executable"],
                     parameters={k: substitute(v, arguments)
                                 for k, v in node.get("parameters", {}).items()},
                     exit_ends_graph=bool(node.get("exit_ends_graph", False)))
            for node in graph["nodes"] if starts(node, arguments)]
