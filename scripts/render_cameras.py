"""Render the three robot cameras in the keyframe stance to docs/robot_cameras.png.

Columns: head, right_wrist, left_wrist. Top row: 256 px views; bottom row: the
official 84 px observation, enlarged 3x.
Run with the project's venv: .venv/bin/python scripts/render_cameras.py
"""

from pathlib import Path

import numpy as np

from bench.png import write_png
from bench.sim.world import G1World

OUT = Path(__file__).resolve().parents[1] / "docs" / "robot_cameras.png"
TILE = 256  # px


def _tile(chw: np.ndarray, scale: int) -> np.ndarray:
    image = chw.transpose(1, 2, 0).repeat(scale, axis=0).repeat(scale, axis=1)
    tile = np.full((TILE, TILE, 3), 255, np.uint8)
    tile[:image.shape[0], :image.shape[1]] = image
    return tile


def main() -> None:
    rows = []
    for size, scale in ((TILE, 1), (84, 3)):
        world = G1World(camera_size=size)
        world.reset_to_keyframe()
        rows.append(np.concatenate([_tile(view, scale) for view in world.render()], axis=1))
        world.close()
    write_png(OUT, np.concatenate(rows, axis=0))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
