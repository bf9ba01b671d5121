"""bench: an evaluation graph for Unitree G1 manipulation policies in MuJoCo.

The core (this package) never imports rclpy. The ROS 2 interfaces generated from
``msg/`` and ``srv/`` install into this same package as ``bench.msg`` and
``bench.srv``; the node shells install as ``bench.nodes``.
"""

import os
import pkgutil

# bench renders its cameras offscreen; EGL on Mesa unless the user chose otherwise.
# MuJoCo reads this when it is first imported, so set it before anything imports it.
os.environ.setdefault("MUJOCO_GL", "egl")

# A source checkout on sys.path must still find the generated bench.msg, bench.srv and
# bench.nodes of the installed package, and vice versa.
__path__ = pkgutil.extend_path(__path__, __name__)

__version__ = "0.1.0"
