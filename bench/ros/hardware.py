"""Messages the hardware bridge publishes from a measured body state."""

from __future__ import annotations

from typing import Any

import numpy as np
from sensor_msgs.msg import Imu, JointState

from bench.hardware.lowcmd import BodyState
from bench.robot import constants as c


def joint_state_msg(body: BodyState, closures: np.ndarray, stamp: Any) -> JointState:
    """The 29 joints (rad, rad/s) and the 2 gripper closures (0 open .. 1 closed)."""
    out = JointState(name=[*c.JOINTS, *c.GRIPPER_JOINTS],
                     position=[*body.q.tolist(), *np.asarray(closures, float).tolist()],
                     velocity=[*body.dq.tolist(), 0.0, 0.0])
    out.header.stamp = stamp
    return out


def imu_msg(body: BodyState, stamp: Any) -> Imu:
    """The pelvis IMU: orientation, angular velocity (body frame), acceleration."""
    out = Imu()
    out.header.stamp, out.header.frame_id = stamp, c.IMU_SITE
    o, w, a = out.orientation, out.angular_velocity, out.linear_acceleration
    o.w, o.x, o.y, o.z = (float(v) for v in body.quat)
    w.x, w.y, w.z = (float(v) for v in body.gyro)
    a.x, a.y, a.z = (float(v) for v in body.accel)
    return out
