"""Peer process for test_interfaces.py: echoes every bench message and serves Reset.

Run as a script with ROS_DOMAIN_ID set by the test. It echoes each message type
from /peer/in/<Type> to /peer/out/<Type>, and answers /peer/reset with an
observation whose control step and first low-dim entry carry the requested seed.
"""

import rclpy
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy

from bench import msg, srv

TYPES = ("WholeBodyCommand", "PolicyAction", "JointTargets", "Observation", "WorldState",
         "TaskStatus", "EpisodeRecord")


class EchoPeer(Node):
    def __init__(self) -> None:
        super().__init__("bench_echo_peer")
        qos = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)
        self._keep = []
        for name in TYPES:
            cls = getattr(msg, name)
            pub = self.create_publisher(cls, f"/peer/out/{name}", qos)
            self._keep.append(self.create_subscription(cls, f"/peer/in/{name}", pub.publish, qos))
        self.create_service(srv.Reset, "/peer/reset", self._reset)

    def _reset(self, request, response):
        response.ok = True
        response.message = f"reset to seed {request.seed}"
        response.observation.control_step = int(request.seed % 1000)
        response.observation.low_dim = [float(request.seed), 1.5]
        response.observation.head.height = 2
        response.observation.head.width = 2
        response.observation.head.encoding = "rgb8"
        response.observation.head.step = 6
        response.observation.head.data = bytes(range(12))
        return response


def main() -> None:
    rclpy.init()
    node = EchoPeer()
    print("ready", flush=True)
    try:
        rclpy.spin(node)
    except KeyboardInterrupt:
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


if __name__ == "__main__":
    main()
