"""numpy <-> bench message conversion, shared by the node shells.

Images use the standard ``rgb8`` encoding and plain numpy (no cv_bridge), so cv_bridge
users on a ROS 2 distribution read them as usual.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sensor_msgs.msg import Image

from bench import msg
from bench.monitor import Status
from bench.robot import constants as c
from bench.wbc.base import BaseCommand, LowerBodyTargets, RobotState


def image_msg(chw: np.ndarray, stamp: Any, frame_id: str) -> Image:
    """A (3, H, W) uint8 image as sensor_msgs/Image rgb8."""
    hwc = np.ascontiguousarray(chw.transpose(1, 2, 0))
    image = Image(height=hwc.shape[0], width=hwc.shape[1], encoding="rgb8",
                  step=hwc.shape[1] * 3, is_bigendian=0)
    image.header.stamp, image.header.frame_id = stamp, frame_id
    image.data = hwc.tobytes()
    return image


def image_array(image: Image) -> np.ndarray:
    """sensor_msgs/Image rgb8 back to (3, H, W) uint8."""
    if image.encoding != "rgb8":
        raise ValueError(f"expected an rgb8 image, got {image.encoding!r}")
    hwc = np.frombuffer(bytes(image.data), np.uint8).reshape(image.height, image.width, 3)
    return hwc.transpose(2, 0, 1).copy()


def observation_msg(observation: dict[str, np.ndarray], seed: int, step: int, stamp: Any,
                    cameras: tuple[str, ...]) -> msg.Observation:
    """The policy's observation (frame_stack 1) as a bench/Observation."""
    out = msg.Observation(seed=seed, control_step=step)
    out.header.stamp = stamp
    out.low_dim = np.asarray(observation["low_dim"], np.float32).reshape(-1)
    for name, image in zip(cameras, observation["rgb_obs"], strict=True):
        setattr(out, name, image_msg(image, stamp, name))
    return out


def observation_dict(message: msg.Observation, cameras: tuple[str, ...]) -> dict[str, np.ndarray]:
    """A bench/Observation back to the env's observation dict."""
    rgb = [image_array(getattr(message, name)) for name in cameras]
    return {"low_dim": np.asarray(message.low_dim, np.float32),
            "rgb_obs": np.stack(rgb) if rgb else np.zeros((0, 3, 84, 84), np.uint8)}


def wbc_request(state: RobotState, command: BaseCommand, arm_targets: np.ndarray, seed: int,
                step: int, reset: bool) -> msg.WbcRequest:
    """What the WBC node needs for one control step."""
    return msg.WbcRequest(
        seed=seed, control_step=step, reset=reset, sim_time=state.time,
        joint_pos=state.joint_pos, joint_vel=state.joint_vel, base_pos=state.base_pos,
        base_quat=state.base_quat, base_lin_vel=state.base_lin_vel,
        base_ang_vel=state.base_ang_vel, vx=command.vx, vy=command.vy, wz=command.wz,
        height=command.height, torso_pitch=command.torso_pitch, torso_roll=command.torso_roll,
        torso_yaw=command.torso_yaw, arm_targets=arm_targets)


def request_parts(request: msg.WbcRequest) -> tuple[RobotState, BaseCommand, np.ndarray]:
    """A WbcRequest back to (state, command, arm targets)."""
    state = RobotState(
        joint_pos=np.array(request.joint_pos), joint_vel=np.array(request.joint_vel),
        base_pos=np.array(request.base_pos), base_quat=np.array(request.base_quat),
        base_lin_vel=np.array(request.base_lin_vel), base_ang_vel=np.array(request.base_ang_vel),
        time=request.sim_time)
    command = BaseCommand(vx=request.vx, vy=request.vy, wz=request.wz, height=request.height,
                          torso_pitch=request.torso_pitch, torso_roll=request.torso_roll,
                          torso_yaw=request.torso_yaw)
    return state, command, np.array(request.arm_targets)


def targets_msg(targets: LowerBodyTargets, seed: int, step: int) -> msg.JointTargets:
    """A controller's answer as bench/JointTargets (legs and waist, motor order)."""
    out = msg.JointTargets(seed=seed, control_step=step, joint_names=list(c.LOWER_BODY),
                           position=targets.position, kp=targets.kp, kd=targets.kd)
    if targets.base_pose is not None:
        out.base_pose = targets.base_pose
    return out


def targets_from(message: msg.JointTargets) -> LowerBodyTargets:
    """bench/JointTargets back to LowerBodyTargets."""
    return LowerBodyTargets(
        position=np.array(message.position), kp=np.array(message.kp), kd=np.array(message.kd),
        base_pose=np.array(message.base_pose) if len(message.base_pose) else None)


def status_msg(status: Status, task: str, seed: int) -> msg.TaskStatus:
    """The monitor's verdict as bench/TaskStatus."""
    return msg.TaskStatus(
        task=task, seed=seed, control_step=status.control_step, success=status.success,
        fell=status.fell, held_steps=status.held_steps, done=status.done,
        termination=status.termination.value, reason=status.reason,
        metrics=[msg.Metric(name=k, value=float(v)) for k, v in status.metrics.items()])
