"""ros2 launch bench eval.launch.py task:=flip_cup policy:=my_pkg.policy:make ...

Starts the evaluation graph described in config/graph.yaml (the same file that
`bench launch eval` reads): its launch arguments, its nodes and their parameters. The
graph shuts down when the evaluator has finished.
"""

from launch.actions import DeclareLaunchArgument, EmitEvent, RegisterEventHandler
from launch.event_handlers import OnProcessExit
from launch.events import Shutdown
from launch.substitutions import LaunchConfiguration, TextSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

from bench.graph import load_graph, split_substitutions
from launch import LaunchDescription


def _value(raw):
    if not isinstance(raw, str):
        return raw  # typed values (use_sim_time: true) keep their type
    parts = [LaunchConfiguration(name) if kind == "arg" else TextSubstitution(text=name)
             for kind, name in split_substitutions(raw)]
    return ParameterValue(parts, value_type=str)  # substituted values travel as strings


def generate_launch_description():
    graph = load_graph()
    actions = [DeclareLaunchArgument(name, default_value=str(spec["default"]),
                                     description=spec["description"])
               for name, spec in graph["arguments"].items()]
    for node in graph["nodes"]:
        parameters = {key: _value(raw) for key, raw in node.get("parameters", {}).items()}
        action = Node(package="bench", executable=node["executable"], name=node["name"],
                      parameters=[parameters], output="screen")
        actions.append(action)
        if node.get("exit_ends_graph"):
            actions.append(RegisterEventHandler(OnProcessExit(
                target_action=action,
                on_exit=[EmitEvent(event=Shutdown(reason="evaluation finished"))])))
    return LaunchDescription(actions)
