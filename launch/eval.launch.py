"""ros2 launch bench eval.launch.py task:=flip_cup policy:=my_pkg.policy:make ...

Starts the evaluation graph described in config/graph.yaml (the same file that
`bench launch eval` reads): its launch arguments, its nodes and their parameters, each
node under its `when` condition (driver:=sim starts the simulator and the evaluator;
driver:=mock_g1 or g1 the hardware bridge instead). The graph shuts down when the node
marked exit_ends_graph has finished.
"""

from launch.actions import DeclareLaunchArgument, EmitEvent, RegisterEventHandler
from launch.conditions import IfCondition
from launch.event_handlers import OnProcessExit
from launch.events import Shutdown
from launch.substitutions import LaunchConfiguration, PythonExpression, TextSubstitution
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


def _condition(when):
    """The node's ``when: {argument: [values]}`` as a launch condition (None: always)."""
    if not when:
        return None
    tests = []
    for name, values in when.items():
        tests += ["(", repr([str(v) for v in values]), ".count('", LaunchConfiguration(name),
                  "') > 0)", " and "]
    return IfCondition(PythonExpression(tests[:-1]))


def generate_launch_description():
    graph = load_graph()
    actions = [DeclareLaunchArgument(name, default_value=str(spec["default"]),
                                     description=spec["description"],
                                     choices=spec.get("choices"))
               for name, spec in graph["arguments"].items()]
    for node in graph["nodes"]:
        parameters = {key: _value(raw) for key, raw in node.get("parameters", {}).items()}
        action = Node(package="bench", executable=node["executable"], name=node["name"],
                      parameters=[parameters], output="screen",
                      condition=_condition(node.get("when")))
        actions.append(action)
        if node.get("exit_ends_graph"):
            actions.append(RegisterEventHandler(OnProcessExit(
                target_action=action,
                on_exit=[EmitEvent(event=Shutdown(reason="evaluation finished"))])))
    return LaunchDescription(actions)
