"""`bench selftest`: the most end-to-end check available before the evaluator exists.

It assembles the G1 with its grippers and cameras in MuJoCo and steps it, runs the
holosoma locomotion ONNX once, and makes a ROS 2 round trip with a generated message
in a child process (the core never imports rclpy).
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

from bench import assets


def check_g1_model() -> str:
    """Assemble the G1 with grippers and cameras, run 50 control steps, render."""
    from bench.robot import constants as c
    from bench.sim.world import CONTROL_DT, G1World

    world = G1World()
    world.reset_to_keyframe()
    start = time.perf_counter()
    for _ in range(50):
        world.step(c.KEYFRAME_JOINTS, c.KP, c.KD, np.ones(2))
    elapsed = time.perf_counter() - start
    images = world.render()
    world.close()
    if not np.all(np.isfinite(world.data.qpos)):
        raise RuntimeError("the G1 model produced a non-finite state")
    return (f"G1 + Dex1-1: {world.model.nq} qpos, {world.model.nu} motors; 50 control steps "
            f"at {50 * CONTROL_DT / elapsed:.1f}x real time; cameras {images.shape}; "
            f"grippers closed to {world.gripper_state().round(2).tolist()}")


def check_locomotion_policy() -> str:
    """Run the holosoma G1 ONNX once on a zero observation."""
    import onnxruntime

    from bench.wbc.holosoma import WALK_MODEL

    path = assets.asset_path("holosoma", WALK_MODEL)
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    (inp,), (out,) = session.get_inputs(), session.get_outputs()
    action = session.run(None, {inp.name: np.zeros((1, 100), np.float32)})[0]
    if action.shape != (1, 29) or not np.all(np.isfinite(action)):
        raise RuntimeError(f"unexpected policy output shape {action.shape}")
    keys = sorted(session.get_modelmeta().custom_metadata_map)
    return f"holosoma policy: {inp.name}{inp.shape} -> {out.name}{out.shape}; metadata {keys}"


def check_ros() -> str:
    """Round-trip a bench.msg.WholeBodyCommand through ROS 2 in a child process."""
    result = subprocess.run([sys.executable, "-m", "bench.ros.loopback"], capture_output=True,
                            text=True, timeout=60, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"ROS 2 round trip failed:\n{result.stderr.strip()}")
    return f"ROS 2: WholeBodyCommand round trip in {result.stdout.strip()}"


def check_env() -> str:
    """make("flip_cup"), reset, and hold the keyframe arms for 5 s under the default WBC."""
    from bench import layout
    from bench.env import make
    from bench.protocol import protocol_violations
    from bench.robot import constants as c

    env = make("flip_cup")
    env.reset(seed=620000)
    raw = np.concatenate([[0.0, 0.0, 0.74, 0.0, 0.0], c.KEYFRAME_JOINTS[15:], [0.0, 0.0]])
    action = layout.normalize(raw, env.action_layout)
    start = time.perf_counter()
    for _ in range(250):
        env.step(action)
    elapsed = time.perf_counter() - start
    pelvis = env.world.robot_state().base_pos
    env.close()
    if env.episode_fell():
        raise RuntimeError(f"the robot fell while standing (pelvis at {pelvis.round(2)})")
    return (f"env flip_cup on {env.backend.name}: stood 5 s, pelvis height {pelvis[2]:.2f} m, "
            f"{250 * 0.02 / elapsed:.1f}x real time with cameras; "
            f"{len(protocol_violations(env))} protocol violation(s) listed")


CHECKS: tuple[Callable[[], str], ...] = (check_g1_model, check_locomotion_policy, check_env,
                                         check_ros)


def run() -> int:
    """Run every check, print one line each; non-zero exit if any failed."""
    failed = 0
    for check in CHECKS:
        try:
            print(f"ok    {check()}")
        except Exception as error:  # report every failing check, not just the first
            failed += 1
            print(f"FAIL  {check.__name__}: {error}")
    return 1 if failed else 0
