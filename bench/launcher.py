"""``bench launch eval name:=value ...``: start the evaluation graph without a ROS 2
distribution, from the same graph description as ``launch/eval.launch.py``.

Two modes, both real ROS 2 nodes talking over DDS on the current ROS_DOMAIN_ID:

* processes (default): one Python process per node, as ``ros2 launch`` would start;
* composed (``--composed``): all nodes in one process and one executor.

The launcher returns the exit code of the node marked ``exit_ends_graph`` (the
evaluator) and then stops the others.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterable

from bench.graph import NodePlan, load_graph, parse_arguments, plan


def node_command(node: NodePlan) -> list[str]:
    """The command line that runs one node as its own process."""
    command = [sys.executable, "-m", node.module, "--ros-args", "-r", f"__node:={node.name}"]
    for key, value in node.parameters.items():
        command += ["-p", f"{key}:={json.dumps(value)}"]  # JSON is YAML: strings stay strings
    return command


def composed_command(tokens: list[str]) -> list[str]:
    """The command line that runs every node in one process."""
    return [sys.executable, "-m", "bench.ros.compose", *tokens]


def launch(graph_name: str, tokens: list[str], composed: bool = False) -> int:
    """Start the graph and wait for the evaluator; returns its exit code."""
    if graph_name != "eval":
        raise ValueError(f"unknown graph {graph_name!r}; known: ['eval']")
    graph = load_graph()
    nodes = plan(parse_arguments(tokens, graph), graph)
    if composed:
        return subprocess.call(composed_command(tokens))
    processes = {node.name: subprocess.Popen(node_command(node)) for node in nodes}
    final = next(node.name for node in nodes if node.exit_ends_graph)
    try:
        while processes[final].poll() is None:
            time.sleep(0.2)
        return processes[final].returncode
    finally:
        stop_processes(processes.values())


def stop_processes(processes: Iterable[subprocess.Popen], sig: int = signal.SIGTERM,
                   timeout: float = 10.0) -> None:
    """Send ``sig`` to every process still running, then wait for each; one that has not
    exited ``timeout`` seconds later is killed (and reaped)."""
    processes = list(processes)
    for process in processes:
        if process.poll() is None:
            process.send_signal(sig)
    for process in processes:
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
