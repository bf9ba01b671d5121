"""All the graph's nodes in one process: ``python -m bench.ros.compose name:=value ...``
(what ``bench launch --composed`` runs)."""

from __future__ import annotations

import importlib
import sys

from rclpy.parameter import Parameter

from bench.graph import load_graph, parse_arguments, plan
from bench.ros.spin import run_nodes


def main(tokens: list[str]) -> int:
    """Build every node of the graph with its parameters and spin them together."""
    graph = load_graph()
    nodes = plan(parse_arguments(tokens, graph), graph)
    factories = [importlib.import_module(node.module).NODE for node in nodes]
    kwargs = [{"node_name": node.name,
               "parameter_overrides": [Parameter(k, value=v) for k, v in node.parameters.items()]}
              for node in nodes]
    return run_nodes(factories, kwargs, args=[sys.argv[0]])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
