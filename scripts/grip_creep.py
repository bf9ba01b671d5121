#!/usr/bin/env python3
"""Print how fast a squeezed box slides out of the Dex1-1 jaw (bench.robot.grip_creep),
one line per contact model:

    scripts/grip_creep.py [pyramidal] [elliptic] [noslip]
"""

from __future__ import annotations

import sys

from bench.robot.grip_creep import slide


def main(variants: list[str]) -> None:
    """Print one line per contact model."""
    for variant in variants or ["pyramidal", "elliptic", "noslip"]:
        slid = ", ".join(f"{s * 1000:.2f}" for s in slide(variant))
        print(f"{variant:10s} slide after 1, 2, 3 s: {slid} mm")


if __name__ == "__main__":
    main(sys.argv[1:])
