"""Table-top tasks (seed 000): plates between draining racks, flipping a cup and a
spoon, stacking blocks on a far table. Tables have their tops at 0.70 m.

Layout (robot at the origin facing +x): the table spans x 0.32-0.92, y -0.6-0.6. The
left rack (robot's left, +y) and right rack stand 0.22 m either side of centre; the
8 cup and mug spots form a 2 x 4 grid 0.1 m apart. For stack_blocks a far table
stands 1.5 m to the robot's right, its near edge at x = 0.32.
"""

from __future__ import annotations

import numpy as np

from bench import predicates as pred
from bench.tasks.base import FLIP_X, Scene, Task, quat_mul, yaw_quat
from bench.tasks.props import (
    CUP_HEIGHT,
    CUP_MASS,
    CUP_RADIUS,
    RACK_BASE_HALF,
    RACK_PLATE_HEIGHT,
    TABLE_TOP,
    add_block,
    add_cup,
    add_pad,
    add_plate,
    add_rack,
    add_spoon,
    add_table,
    rack_slot_offsets,
)

TABLE_CENTER, TABLE_HALF = (0.62, 0.0), (0.30, 0.60)
RACK_BASES = {"rack_left": np.array([0.47, 0.22]), "rack_right": np.array([0.47, -0.22])}
RACK_JITTER = 0.05  # m in x and y
PLATE_FACING_RIGHT = np.array([np.cos(np.pi / 4), np.sin(np.pi / 4), 0.0, 0.0])  # +z -> -y
RIGHT = np.array([0.0, -1.0, 0.0])  # the robot's right
SLOT_TOLERANCE = 0.05  # m, plate centre to slot centre
EDGE_TOLERANCE_DEG = 20.0
SPOTS = np.array([(x, y) for x in (0.45, 0.55) for y in (-0.15, -0.05, 0.05, 0.15)])
SPOT_JITTER = 0.03  # m
MUG_RADIUS, MUG_HEIGHT = 0.045, 0.10


def add_main_table(spec) -> None:
    """The table in front of the robot (geom ``table_top``)."""
    add_table(spec, "table", TABLE_CENTER, TABLE_HALF)


def rack_slots(scene: Scene, rack: str) -> np.ndarray:
    """World positions of a rack's 6 slot centres (where a seated plate's centre is)."""
    pos, quat = scene.pos(rack), scene.quat(rack)
    local = [np.array([0.0, y, RACK_PLATE_HEIGHT]) for y in rack_slot_offsets()]
    return np.array([pos + pred.axis_in_world(quat, offset) for offset in local])


class _Plates(Task):
    """Plates from the left rack to the right one."""

    plates: tuple[str, ...] = ("plate",)

    def build(self, spec) -> None:
        add_main_table(spec)
        for rack in RACK_BASES:
            add_rack(spec, rack)
        for plate in self.plates:
            add_plate(spec, plate)

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        placed = {}
        for rack, base in RACK_BASES.items():
            placed[rack] = base + rng.uniform(-RACK_JITTER, RACK_JITTER, 2)
            scene.set_free_pose(rack, [*placed[rack], TABLE_TOP + RACK_BASE_HALF])
        slots = rng.choice(6, size=len(self.plates), replace=False)
        rack_xy = placed["rack_left"]
        for plate, slot in zip(self.plates, slots, strict=True):
            y = rack_xy[1] + rack_slot_offsets()[slot]
            scene.set_free_pose(plate, [rack_xy[0], y, TABLE_TOP + RACK_BASE_HALF
                                        + RACK_PLATE_HEIGHT + 0.002], PLATE_FACING_RIGHT)

    def plate_clauses(self, scene: Scene, plate: str) -> dict[str, bool]:
        """The move_plate condition for one plate, clause by clause."""
        centre, quat = scene.pos(plate), scene.quat(plate)
        slots = rack_slots(scene, "rack_right")
        plate_geoms = scene.geoms(plate)
        return {
            f"{plate}_in_target_slot":
                float(np.min(np.linalg.norm(slots - centre, axis=1))) <= SLOT_TOLERANCE,
            f"{plate}_on_edge_facing_right": pred.facing(quat, RIGHT, EDGE_TOLERANCE_DEG),
            f"{plate}_touches_target_rack":
                scene.touches(plate_geoms, scene.geoms("rack_right")),
            f"{plate}_off_table": not scene.touches(plate_geoms, scene.geom("table_top")),
            f"{plate}_released": not scene.held(plate),
        }

    def clauses(self, scene: Scene) -> dict[str, bool]:
        out: dict[str, bool] = {}
        for plate in self.plates:
            out.update(self.plate_clauses(scene, plate))
        return out

    def fail(self, scene: Scene) -> str | None:
        for plate in self.plates:
            if scene.touches(scene.geoms(plate), scene.floor):
                return f"{plate} touched the floor"
        return None


class MovePlate(_Plates):
    """Move the plate from the left draining rack to the right one; it must stand in a
    slot facing the robot's right within 20 degrees, touch the rack, not the table, and
    be released. Fail-fast: the plate touches the floor."""

    name = "move_plate"


class MoveTwoPlates(_Plates):
    """Both plates meet the move_plate condition at once; they start in two different
    slots of the left rack."""

    name = "move_two_plates"
    plates = ("plate_a", "plate_b")


def _spot(rng: np.random.Generator) -> np.ndarray:
    return SPOTS[rng.integers(len(SPOTS))] + rng.uniform(-SPOT_JITTER, SPOT_JITTER, 2)


class FlipCup(Task):
    """Turn the upside-down cup upright: upright within 5 degrees, touching the table,
    released. It starts upside down in one of 8 spots, +-0.03 m, yaw 180 +- 30 degrees.
    No fail-fast."""

    name = "flip_cup"
    UPRIGHT_DEG = 5.0

    def build(self, spec) -> None:
        add_main_table(spec)
        add_cup(spec, "cup", CUP_RADIUS, CUP_HEIGHT, CUP_MASS, [0.85, 0.3, 0.25, 1])

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        yaw = np.pi + rng.uniform(-np.pi / 6, np.pi / 6)
        scene.set_free_pose("cup", [*_spot(rng), TABLE_TOP + CUP_HEIGHT / 2 + 0.001],
                            quat_mul(yaw_quat(yaw), FLIP_X))

    def clauses(self, scene: Scene) -> dict[str, bool]:
        return {"cup_upright": pred.upright_within(scene.quat("cup"), self.UPRIGHT_DEG),
                "cup_touches_table": scene.touches(scene.geoms("cup"), scene.geom("table_top")),
                "cup_released": not scene.held("cup")}


class FlipCutlery(Task):
    """Take the spoon out of the mug, turn it over and put it back: the spoon points down
    within 50 degrees, touches the mug, and neither is held. The mug starts in one of
    the 8 spots, +-0.03 m, random yaw, with the spoon standing in it pointing up (bowl
    up, leaning 10 degrees on the rim). No fail-fast."""

    name = "flip_cutlery"
    DOWN_DEG = 50.0
    LEAN = 0.17  # rad

    def build(self, spec) -> None:
        add_main_table(spec)
        add_cup(spec, "mug", MUG_RADIUS, MUG_HEIGHT, 0.3, [0.2, 0.45, 0.8, 1], handle=True)
        add_spoon(spec, "spoon")

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        xy = _spot(rng)
        yaw = rng.uniform(-np.pi, np.pi)
        mug_z = TABLE_TOP + MUG_HEIGHT / 2 + 0.001
        scene.set_free_pose("mug", [*xy, mug_z], yaw_quat(yaw))
        lean = np.array([np.cos(self.LEAN / 2), 0.0, np.sin(self.LEAN / 2), 0.0])
        quat = quat_mul(yaw_quat(yaw), lean)
        # handle's lower end near the mug bottom, leaning toward the mug's +x wall
        centre = np.array([*xy, mug_z - MUG_HEIGHT / 2 + 0.085]) + pred.axis_in_world(
            yaw_quat(yaw), np.array([0.006, 0.0, 0.0]))
        scene.set_free_pose("spoon", centre, quat)

    def clauses(self, scene: Scene) -> dict[str, bool]:
        return {"spoon_points_down": pred.points_down_within(scene.quat("spoon"), self.DOWN_DEG),
                "spoon_touches_mug": scene.touches(scene.geoms("spoon"), scene.geoms("mug")),
                "spoon_released": not scene.held("spoon"),
                "mug_released": not scene.held("mug")}


BLOCKS = ("block_red", "block_green", "block_blue")
BLOCK_HALF = 0.025  # m
BLOCK_ROW_Y = (-0.225, -0.075, 0.075, 0.225)  # m, 4 spots 0.15 m apart
BLOCK_ROW_X = 0.50
FAR_TABLE_CENTER, FAR_TABLE_HALF = (0.62, -1.5), (0.30, 0.45)
PAD_INSIDE = (0.10, 0.18)  # m inside the far table's near edge
PAD_Y_JITTER = 0.08


class StackBlocks(Task):
    """Carry three blocks to the far table and stack them on the green pad: the lowest
    touches the pad, each block touches the one below and sits at least 0.03 m higher
    and within 0.05 m horizontally of it, and no block is held. Fail-fast: a block
    touches the floor. Blocks start in 3 of 4 spots 0.15 m apart on the near table,
    +-0.05 m with random yaw; the pad sits on the far table +-0.04 m in x and +-0.08 m
    in y, 0.10-0.18 m inside its near edge."""

    name = "stack_blocks"
    MIN_RISE = 0.03  # m
    MAX_OFFSET = 0.05  # m

    def build(self, spec) -> None:
        add_main_table(spec)
        add_table(spec, "far_table", FAR_TABLE_CENTER, FAR_TABLE_HALF)
        add_pad(spec, "pad")
        for name, rgba in zip(BLOCKS, ([0.85, 0.2, 0.2, 1], [0.25, 0.7, 0.3, 1],
                                       [0.2, 0.35, 0.85, 1]), strict=True):
            add_block(spec, name, rgba, BLOCK_HALF)

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        spots = rng.choice(len(BLOCK_ROW_Y), size=len(BLOCKS), replace=False)
        for name, spot in zip(BLOCKS, spots, strict=True):
            xy = np.array([BLOCK_ROW_X, BLOCK_ROW_Y[spot]]) + rng.uniform(-0.05, 0.05, 2)
            scene.set_free_pose(name, [*xy, TABLE_TOP + BLOCK_HALF + 0.001],
                                yaw_quat(rng.uniform(-np.pi, np.pi)))
        near_edge = FAR_TABLE_CENTER[0] - FAR_TABLE_HALF[0]
        x = near_edge + rng.uniform(*PAD_INSIDE)
        y = FAR_TABLE_CENTER[1] + rng.uniform(-PAD_Y_JITTER, PAD_Y_JITTER)
        scene.set_free_pose("pad", [x, y, TABLE_TOP + 0.0035])

    def clauses(self, scene: Scene) -> dict[str, bool]:
        order = sorted(BLOCKS, key=lambda b: scene.pos(b)[2])
        out = {"bottom_touches_pad": scene.touches(scene.geoms(order[0]), scene.geoms("pad"))}
        for level in (1, 2):
            upper, lower = order[level], order[level - 1]
            up, low = scene.pos(upper), scene.pos(lower)
            out[f"level{level}_touches_below"] = scene.touches(scene.geoms(upper),
                                                               scene.geoms(lower))
            out[f"level{level}_higher"] = up[2] - low[2] >= self.MIN_RISE
            out[f"level{level}_aligned"] = pred.horizontal_distance(up, low) <= self.MAX_OFFSET
        out["blocks_released"] = not scene.held(*BLOCKS)
        return out

    def fail(self, scene: Scene) -> str | None:
        for block in BLOCKS:
            if scene.touches(scene.geoms(block), scene.floor):
                return f"{block} touched the floor"
        return None


TASK_CLASSES = (MovePlate, MoveTwoPlates, FlipCup, FlipCutlery, StackBlocks)
