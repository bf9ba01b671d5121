"""Helpers shared by the node shells. Modules here may import rclpy; the core may not."""
