"""Small stand-ins for the GR00T-WBC ONNX pair, built with the onnx package.

Same signature as the real files (one float32 input [1, 516], first output [1, 15]);
the action is ``W @ input + bias`` with known W, so a test can compute what the
controller must do with it. A second output echoes the input, recording what the
model received.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

INPUT_SIZE = 516
NUM_ACTIONS = 15
BALANCE_BIAS = 0.1  # every Balance action is W @ x + 0.1
WALK_BIAS = -0.2  # every Walk action is W @ x - 0.2


def weights() -> np.ndarray:
    """The fixed (516, 15) weight matrix of both fakes."""
    return (np.random.default_rng(7).standard_normal((INPUT_SIZE, NUM_ACTIONS)) * 1e-3).astype(
        np.float32)


def _model(bias: float) -> onnx.ModelProto:
    inp = helper.make_tensor_value_info("obs", TensorProto.FLOAT, [1, INPUT_SIZE])
    out = helper.make_tensor_value_info("action", TensorProto.FLOAT, [1, NUM_ACTIONS])
    echo = helper.make_tensor_value_info("received", TensorProto.FLOAT, [1, INPUT_SIZE])
    w = numpy_helper.from_array(weights(), "W")
    b = numpy_helper.from_array(np.full(NUM_ACTIONS, bias, np.float32), "B")
    nodes = [helper.make_node("MatMul", ["obs", "W"], ["wx"]),
             helper.make_node("Add", ["wx", "B"], ["action"]),
             helper.make_node("Identity", ["obs"], ["received"])]
    graph = helper.make_graph(nodes, "fake_groot", [inp], [out, echo], initializer=[w, b])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 9
    onnx.checker.check_model(model)
    return model


def write_fakes(folder: Path) -> Path:
    """Write GR00T-WholeBodyControl-{Balance,Walk}.onnx fakes into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    onnx.save(_model(BALANCE_BIAS), str(folder / "GR00T-WholeBodyControl-Balance.onnx"))
    onnx.save(_model(WALK_BIAS), str(folder / "GR00T-WholeBodyControl-Walk.onnx"))
    return folder
