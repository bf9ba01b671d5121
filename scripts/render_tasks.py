"""Render one picture per task with a scene to docs/tasks/<task>.png.

Left: an external view after the reset (seed 620000); right: the three robot cameras
(head, right wrist, left wrist) at the official 84 px, enlarged 2x.
Run with the project's venv: .venv/bin/python scripts/render_tasks.py [task ...]
"""

import sys
from pathlib import Path

import numpy as np

from bench.env import make
from bench.png import write_png
from bench.tasks import SCENES, TASKS

OUT = Path(__file__).resolve().parents[1] / "docs" / "tasks"
SIZE = 504  # px, external view; the three camera tiles stack to the same height
DEFAULT_VIEW = ((0.45, 0.0, 0.75), 2.0, 215)  # look-at point (m), distance (m), azimuth (deg)
KITCHEN_VIEW = ((0.75, 0.0, 0.95), 3.0, 30)
DISHWASHER_VIEW = ((0.3, 0.35, 0.7), 2.7, 30)  # from behind the robot's right shoulder
VIEWS = {
    "stack_blocks": ((0.9, -0.6, 0.6), 3.2, 215),
    "pick_box": ((0.6, -0.45, 0.75), 3.4, 50),
    "saucepan_to_hob": ((0.7, 0.0, 0.75), 2.6, 30),
    "store_box": ((0.7, 0.0, 0.75), 2.6, 30),
    "store_kitchenware": ((0.7, 0.0, 0.75), 2.6, 30),
    "store_groceries_lower": ((0.7, 0.0, 0.75), 2.8, 30),
}


def picture(task: str) -> np.ndarray:
    """External view beside the three robot cameras, after a seeded reset."""
    env = make(task, render_mode="rgb_array")
    obs, _ = env.reset(seed=620000)
    world = env.world
    world.model.vis.global_.offwidth = world.model.vis.global_.offheight = SIZE
    lookat, distance, azimuth = VIEWS.get(task, DEFAULT_VIEW)
    if task not in VIEWS and TASKS[task].group == "kitchen counter":
        lookat, distance, azimuth = KITCHEN_VIEW
    if task not in VIEWS and TASKS[task].group == "dishwasher":
        lookat, distance, azimuth = DISHWASHER_VIEW
    external = world.render_view(lookat, distance, azimuth=azimuth, elevation=-30, size=SIZE)
    cams = [view.transpose(1, 2, 0).repeat(2, 0).repeat(2, 1) for view in obs["rgb_obs"]]
    column = np.concatenate(cams, axis=0)  # 3 x 168 = 504 px
    env.close()
    return np.concatenate([external, column], axis=1)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for task in sys.argv[1:] or sorted(SCENES):
        write_png(OUT / f"{task}.png", picture(task))
        print(f"wrote {OUT / task}.png")


if __name__ == "__main__":
    main()
