"""The ROS 2 node shells, installed as ``bench.nodes``; each is also an executable."""
