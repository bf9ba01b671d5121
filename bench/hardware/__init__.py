"""The real-G1 path: the unitree_sdk2 DDS interface, written here on CycloneDDS.

* ``unitree_idl``: the wire types (``unitree_hg`` LowCmd_/LowState_, ``unitree_go``
  MotorCmds_/MotorStates_ for the Dex1-1 grippers) and topic names;
* ``crc``: the CRC32 the robot checks on every LowCmd_;
* ``lowcmd``: LowCmd_ assembly, damping commands, LowState_ reading;
* ``safety``: joint-limit clamp, rate limit, heartbeat watchdogs, the arming state machine;
* ``bridge``: the bridge's logic (graph targets in, safe LowCmd_ out), free of rclpy;
* ``dds``: loopback-only participants on a chosen domain;
* ``mock_robot``: the project's MuJoCo G1 behind the same DDS interface;
* ``free_running``: the task monitor's real-time mode (IMU falls, mocap poses).

Nothing here imports rclpy; ``nodes/g1_bridge_node.py`` is the ROS shell.
"""
