"""Kitchen-counter tasks (seed 000, "Kitchen counter" and "Tasks released later").

The scene is ``bench.tasks.kitchen_scene``: a counter with three drawers, two cabinets
and a hob, a lowered wall cabinet with two glass doors, an open shelf. Each task shifts
the kitchen along y so that what it works on stands in front of the robot.

Doors and drawers report a normalized position, 0 closed and 1 open; "open" means at
least 1 - TOLERANCE (9 degrees of a door, 0.038 m of a drawer, from fully open) and
"closed" at most TOLERANCE. "Held" is a gripper pad touching the object; "released"
its negation. Tasks without a fail-fast condition let a dropped object be picked up.

Design choices where the seed is silent (the later tasks, and the details):

- Parts a reset does not mention start closed; objects stand upright at rest, 0.5 to
  1 mm above their support, and settle in the warmup.
- ``g1_id_v1`` (drawer_top_open and drawer_top_close): the robot spawns at x 0.12 to
  0.14 m, y +-0.05 m, yaw +-5 degrees, and the top drawer is held at its drawn opening
  until the warmup ends. Under ``upstream`` the robot spawns at the origin and the
  drawer is free in the warmup; the drawer's opening is the same for both profiles.
- Later tasks that store things somewhere start that place open (store_box,
  store_kitchenware, store_groceries_lower/upper), so the task is the carrying.
- "A random set of groceries": the model holds all four groceries (a monitor rebuilds
  the scene from qpos, so the model cannot change per seed); the reset draws 2 to 4 of
  them to stand on the counter, and the others start already stored. Success: every
  grocery is stored and released.
"""

from __future__ import annotations

import numpy as np

from bench import predicates as pred
from bench.tasks import kitchen_scene as ks
from bench.tasks.base import Scene, Task, yaw_quat
from bench.tasks.props import CUP_HEIGHT, CUP_MASS, CUP_RADIUS, add_cup, add_table

TOLERANCE = 0.1  # normalized, open or closed
CLOSED_START = (0.0, 0.15)  # normalized opening range of a drawer that starts closed
OPEN_START = (0.85, 1.0)  # normalized opening range of a part that starts open
G1_SPAWN_X, G1_SPAWN_Y, G1_SPAWN_YAW = (0.12, 0.14), 0.05, np.radians(5.0)
SIDE_TABLE_CENTER, SIDE_TABLE_HALF, SIDE_TABLE_TOP = (0.70, -1.0), (0.25, 0.25), 0.50
BOX_JITTER = 0.03  # m
BOX_BOTTOM_TOLERANCE = 0.03  # m
CUPS = ("cup_a", "cup_b")
CUP_SPOTS_Y = (-0.15, 0.0, 0.15)  # local y of put_cups' three counter spots
CUP_SPOTS_X = 0.18  # local x
CUP_JITTER = 0.03  # m
SHELF_CUP_SPOTS = ((0.25, -0.13), (0.25, 0.13))  # local x, y on the wall cabinet's bottom shelf
SAUCEPAN_SHELF = (0.26, 0.60)  # local x, y on the left cabinet's shelf, front of the shelf
SAUCEPAN_JITTER = 0.05  # m
PAN_ON_HOB = (0.28, 0.60)  # local x, y (sandwich tasks)
PAN_JITTER, PAN_YAW = 0.02, np.radians(15.0)
SPATULA_OFFSET = (-0.02, -0.34)  # m, spatula origin in the pan's frame (x, y)
BOARD_AT, BOARD_YAW = (0.22, 0.0), np.radians(5.0)  # local x, y
SANDWICH_JITTER = 0.01  # m, on the pan
FLAT_DEG = 10.0
KITCHENWARE_ON_HOB = (("pan", (0.30, 0.47), 0.0), ("saucepan", (0.28, 0.74), np.pi / 2))
GROCERY_SPOTS_Y = (-0.21, -0.07, 0.07, 0.21)  # local y of the counter spots, x 0.2
GROCERY_JITTER = 0.02  # m


def open_clauses(scene: Scene, parts: tuple[str, ...], is_open: bool) -> dict[str, bool]:
    """``<part>_open`` (opening >= 1 - TOLERANCE) or ``<part>_closed`` (<= TOLERANCE)."""
    if is_open:
        return {f"{part}_open": ks.opening(scene, part) >= 1.0 - TOLERANCE for part in parts}
    return {f"{part}_closed": ks.opening(scene, part) <= TOLERANCE for part in parts}


def flat_within(quat: np.ndarray, deg: float) -> bool:
    """A flat object (face normal local z) lies flat, either face up, within ``deg``."""
    return pred.upright_within(quat, deg) or pred.points_down_within(quat, deg)


def bottom_height(scene: Scene, body: str, half: tuple[float, float, float]) -> float:
    """Height of the centre of a box's lowest face (the face whose normal points most
    nearly down)."""
    mat = scene.data.xmat[scene.model.body(body).id].reshape(3, 3)
    axis = int(np.argmax(np.abs(mat[2])))
    return float(scene.pos(body)[2] - half[axis] * abs(mat[2, axis]))


class _Kitchen(Task):
    """A kitchen-counter task: the kitchen (shifted by KITCHEN_Y, counter top at
    COUNTER_TOP) plus the task's props."""

    KITCHEN_Y = 0.0
    COUNTER_TOP = ks.COUNTER_TOP

    def __init__(self) -> None:
        self.kitchen = ks.Kitchen(self.KITCHEN_Y, self.COUNTER_TOP)

    def build(self, spec) -> None:
        self.kitchen.build(spec)
        self.add_props(spec)

    def add_props(self, spec) -> None:
        """Add the task's free bodies; by default none."""

    def place(self, scene: Scene, body: str, x: float, y: float, z: float,
              yaw: float = 0.0) -> None:
        """Put a free body at a kitchen-local point with a yaw, at rest."""
        scene.set_free_pose(body, self.kitchen.world(x, y, z), yaw_quat(yaw))

    def metrics(self, scene: Scene) -> dict[str, float]:
        """Each clause as 0/1, and every drawer's and door's normalized position."""
        out = super().metrics(scene)
        out.update({f"{part}_position": ks.opening(scene, part) for part in ks.ARTICULATIONS})
        return out

    def touches(self, scene: Scene, body: str, *geoms: str) -> bool:
        """The body touches any of the named geoms."""
        ids: set[int] = set()
        for geom in geoms:
            ids |= scene.geom(geom)
        return scene.touches(scene.geoms(body), ids)


class _Articulation(_Kitchen):
    """Open or close a set of drawers and doors. Drawers start in ``drawer_start`` and
    doors in ``door_start`` (normalized ranges; None leaves them closed)."""

    parts: tuple[str, ...] = ()
    goal_open = True
    drawer_start: tuple[float, float] | None = None
    door_start: tuple[float, float] | None = None

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        for part in self.parts:
            start = self.drawer_start if part in ks.DRAWERS else self.door_start
            if start is not None:
                ks.set_opening(scene, part, rng.uniform(*start))

    def clauses(self, scene: Scene) -> dict[str, bool]:
        return open_clauses(scene, self.parts, self.goal_open)


class _TopDrawer(_Articulation):
    """The top drawer under the g1_id_v1 initialization profile (see the module)."""

    parts = ("drawer_top",)

    def __init__(self) -> None:
        super().__init__()
        self._hold: float | None = None

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        x, y = rng.uniform(*G1_SPAWN_X), rng.uniform(-G1_SPAWN_Y, G1_SPAWN_Y)
        yaw = rng.uniform(-G1_SPAWN_YAW, G1_SPAWN_YAW)
        super().reset(scene, rng)
        self._hold = None
        if self.initialization_profile == "g1_id_v1":
            ks.set_robot_pose(scene, x, y, yaw)
            self._hold = ks.opening(scene, "drawer_top")

    def hold_through_warmup(self, scene: Scene) -> None:
        if self._hold is not None:
            ks.set_opening(scene, "drawer_top", self._hold)


class DrawerTopOpen(_TopDrawer):
    """Open the top drawer: at least 90% open. It starts 0 to 15% open; g1_id_v1 spawn
    (x 0.12-0.14 m, y +-0.05 m, yaw +-5 degrees), drawer held through the warmup."""

    name = "drawer_top_open"
    drawer_start = CLOSED_START


class DrawerTopClose(_TopDrawer):
    """Close the top drawer: within 0.038 m (10%) of closed. It starts 85 to 100% open;
    spawn and warmup hold as drawer_top_open."""

    name = "drawer_top_close"
    goal_open = False
    drawer_start = OPEN_START


class WallCupboardOpen(_Articulation):
    """Open both glass doors of the wall cabinet, each within 9 degrees of fully open.
    No reset: the doors start closed on every seed."""

    name = "wall_cupboard_open"
    parts = ks.WALL_DOORS


class WallCupboardClose(_Articulation):
    """Close both glass doors, each within 9 degrees of closed. No reset: the doors start
    fully open on every seed, their free edges 0.64 m ahead of the origin."""

    name = "wall_cupboard_close"
    parts = ks.WALL_DOORS
    goal_open = False
    door_start = (1.0, 1.0)


class DrawersOpenAll(_Articulation):
    """Open all three drawers (each at least 90% open); each starts 0 to 15% open."""

    name = "drawers_open_all"
    parts = ks.DRAWERS
    drawer_start = CLOSED_START


class DrawersCloseAll(_Articulation):
    """Close all three drawers (each at most 10% open); each starts 85 to 100% open."""

    name = "drawers_close_all"
    parts = ks.DRAWERS
    goal_open = False
    drawer_start = OPEN_START


class CupboardsOpenAll(_Articulation):
    """Open every drawer and door of the kitchen set: three drawers, two cabinet doors,
    two glass doors, each at least 90% open. Drawers start 0 to 15% open, doors closed."""

    name = "cupboards_open_all"
    parts = ks.ARTICULATIONS
    drawer_start = CLOSED_START


class CupboardsCloseAll(_Articulation):
    """Close every drawer and door (each at most 10% open); each starts 85 to 100% open."""

    name = "cupboards_close_all"
    parts = ks.ARTICULATIONS
    goal_open = False
    drawer_start = door_start = OPEN_START


class _BoxTask(_Kitchen):
    """The 3 kg box."""

    def add_props(self, spec) -> None:
        ks.add_box(spec)


class PickBox(_BoxTask):
    """Pick up the box from the side table and put it on the counter: it touches the
    counter, is released, its centre is over the counter and its bottom face's centre
    is within 0.03 m of the counter top. The box stands upright on a side table (top at
    0.50 m) 0.7 m ahead and 1 m to the robot's right, +-0.03 m in x and y, random yaw;
    the counter top is at 0.71 m. No fail-fast."""

    name = "pick_box"
    KITCHEN_Y = 0.30  # keeps the counter clear of the side table
    COUNTER_TOP = 0.71

    def add_props(self, spec) -> None:
        add_table(spec, "side_table", SIDE_TABLE_CENTER, SIDE_TABLE_HALF, top=SIDE_TABLE_TOP)
        super().add_props(spec)

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        xy = np.array(SIDE_TABLE_CENTER) + rng.uniform(-BOX_JITTER, BOX_JITTER, 2)
        scene.set_free_pose("box", [*xy, SIDE_TABLE_TOP + ks.BOX_HALF[2] + 0.001],
                            yaw_quat(rng.uniform(-np.pi, np.pi)))

    def clauses(self, scene: Scene) -> dict[str, bool]:
        bottom = bottom_height(scene, "box", ks.BOX_HALF)
        return {"box_touches_counter": self.touches(scene, "box", "counter_top"),
                "box_over_counter": self.kitchen.over_counter(scene.pos("box")),
                "box_bottom_on_counter": abs(bottom - self.COUNTER_TOP) <= BOX_BOTTOM_TOLERANCE,
                "box_released": not scene.held("box")}


class StoreBox(_BoxTask):
    """Move the box from the counter to the shelf in the right cabinet below: it touches
    that shelf and is released. The box stands on the counter above the cabinet, +-0.03
    m in x and y, yaw +-15 degrees; the cabinet door starts fully open. No fail-fast."""

    name = "store_box"
    KITCHEN_Y = 0.45  # the right cabinet in front of the robot

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        ks.set_opening(scene, "cabinet_right_door", 1.0)
        x, y = np.array([0.25, -0.60]) + rng.uniform(-BOX_JITTER, BOX_JITTER, 2)
        self.place(scene, "box", x, y, self.COUNTER_TOP + ks.BOX_HALF[2] + 0.001,
                   rng.uniform(-np.pi / 12, np.pi / 12))

    def clauses(self, scene: Scene) -> dict[str, bool]:
        return {"box_on_cabinet_shelf": self.touches(scene, "box", "cabinet_right_shelf"),
                "box_released": not scene.held("box")}


class _Cups(_Kitchen):
    """Two cups with handles (0.15 kg, radius 0.04 m, height 0.09 m)."""

    def add_props(self, spec) -> None:
        for cup, rgba in zip(CUPS, ([0.85, 0.3, 0.25, 1], [0.25, 0.45, 0.85, 1]), strict=True):
            add_cup(spec, cup, CUP_RADIUS, CUP_HEIGHT, CUP_MASS, rgba, handle=True)


class PutCups(_Cups):
    """Put the two cups from the counter into the wall cabinet: both touch its bottom
    shelf and are released; the glass doors start closed and need not be closed again.
    The cups take 2 of 3 spots 0.15 m apart across the counter, +-0.03 m in x and y,
    upright with yaw 180 +- 30 degrees (handles toward the robot). No fail-fast."""

    name = "put_cups"

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        spots = rng.choice(len(CUP_SPOTS_Y), size=len(CUPS), replace=False)
        for cup, spot in zip(CUPS, spots, strict=True):
            dx, dy = rng.uniform(-CUP_JITTER, CUP_JITTER, 2)
            yaw = np.pi + rng.uniform(-np.pi / 6, np.pi / 6)
            self.place(scene, cup, CUP_SPOTS_X + dx, CUP_SPOTS_Y[spot] + dy,
                       self.COUNTER_TOP + CUP_HEIGHT / 2 + 0.001, yaw)

    def clauses(self, scene: Scene) -> dict[str, bool]:
        out: dict[str, bool] = {}
        for cup in CUPS:
            out[f"{cup}_on_wall_shelf"] = self.touches(scene, cup, "wall_shelf_bottom")
            out[f"{cup}_released"] = not scene.held(cup)
        return out


class TakeCups(_Cups):
    """Take the two cups out of the closed wall cabinet and put them on the counter:
    both touch the counter top and are released. The cups stand upright on the bottom
    shelf, 0.26 m apart, +-0.02 m in x and y, random yaw; the doors start closed. No
    fail-fast."""

    name = "take_cups"

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        for cup, (x, y) in zip(CUPS, SHELF_CUP_SPOTS, strict=True):
            dx, dy = rng.uniform(-0.02, 0.02, 2)
            self.place(scene, cup, x + dx, y + dy, ks.WALL_BOTTOM + CUP_HEIGHT / 2 + 0.001,
                       rng.uniform(-np.pi, np.pi))

    def clauses(self, scene: Scene) -> dict[str, bool]:
        out: dict[str, bool] = {}
        for cup in CUPS:
            out[f"{cup}_on_counter"] = self.touches(scene, cup, "counter_top")
            out[f"{cup}_released"] = not scene.held(cup)
        return out


class SaucepanToHob(_Kitchen):
    """Take the saucepan out of the closed left cabinet and put it on the hob: it
    touches the hob and is released. It stands at the front of the cabinet's shelf
    (0.08 m further forward than in BiGym), +-0.05 m in x and y, yaw 90 +- 20 degrees
    (handle toward the robot). No fail-fast."""

    name = "saucepan_to_hob"
    KITCHEN_Y = -0.45  # the left cabinet and the hob in front of the robot

    def add_props(self, spec) -> None:
        ks.add_saucepan(spec)

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        x, y = np.array(SAUCEPAN_SHELF) + rng.uniform(-SAUCEPAN_JITTER, SAUCEPAN_JITTER, 2)
        yaw = np.pi / 2 + rng.uniform(-np.radians(20), np.radians(20))
        self.place(scene, "saucepan", x, y, self.kitchen.shelf_top() + 0.001, yaw)

    def clauses(self, scene: Scene) -> dict[str, bool]:
        return {"saucepan_touches_hob": self.touches(scene, "saucepan", "hob"),
                "saucepan_released": not scene.held("saucepan")}


class _Sandwich(_Kitchen):
    """The frying pan on the hob, the spatula beside it at a fixed offset from the pan,
    the chopping board and the sandwich. Fail-fast: a gripper touches the sandwich (the
    spatula is required)."""

    KITCHEN_Y = -0.45  # pan handle before the left shoulder, spatula before the right

    def add_props(self, spec) -> None:
        ks.add_frying_pan(spec)
        ks.add_spatula(spec)
        ks.add_board(spec)
        ks.add_sandwich(spec)

    def place_cookware(self, scene: Scene, rng: np.random.Generator) -> np.ndarray:
        """Pan on the hob (+-0.02 m, yaw +-15 degrees), spatula at its fixed offset,
        board on the counter (yaw +-5 degrees); returns the pan's local x, y."""
        px, py = np.array(PAN_ON_HOB) + rng.uniform(-PAN_JITTER, PAN_JITTER, 2)
        yaw = rng.uniform(-PAN_YAW, PAN_YAW)
        hob = self.COUNTER_TOP + 0.006
        self.place(scene, "pan", px, py, hob + 0.0005, yaw)
        ox, oy = SPATULA_OFFSET
        sx = px + ox * np.cos(yaw) - oy * np.sin(yaw)
        sy = py + ox * np.sin(yaw) + oy * np.cos(yaw)
        self.place(scene, "spatula", sx, sy, self.COUNTER_TOP + 0.0005, yaw)
        self.place(scene, "board", *BOARD_AT, self.COUNTER_TOP + ks.BOARD_HALF[2] + 0.0005,
                   rng.uniform(-BOARD_YAW, BOARD_YAW))
        return np.array([px, py])

    def sandwich_in_pan(self, scene: Scene, rng: np.random.Generator, pan: np.ndarray) -> None:
        """The sandwich on the floor of the pan (local x, y ``pan``), +-0.01 m, random
        yaw, toasted face up."""
        x, y = pan + rng.uniform(-SANDWICH_JITTER, SANDWICH_JITTER, 2)
        self.place(scene, "sandwich", x, y, self.COUNTER_TOP + 0.006 + 0.0005 + 0.008
                   + ks.SANDWICH_HALF[2] + 0.0005, rng.uniform(-np.pi, np.pi))

    def fail(self, scene: Scene) -> str | None:
        grippers = scene.geoms(*(f"{side}_gripper_{part}" for side in ("left", "right")
                                 for part in ("base", "finger_a", "finger_b")))
        if scene.touches(grippers, scene.geoms("sandwich")):
            return "a gripper touched the sandwich"
        return None


class SandwichRemove(_Sandwich):
    """Use the spatula to move the sandwich from the frying pan onto the chopping board:
    it lies flat within 10 degrees, either face up, and touches the board. The pan sits
    on the hob +-0.02 m, yaw +-15 degrees; the sandwich lies on it +-0.01 m, random yaw;
    the board has yaw +-5 degrees."""

    name = "sandwich_remove"

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        self.sandwich_in_pan(scene, rng, self.place_cookware(scene, rng))

    def clauses(self, scene: Scene) -> dict[str, bool]:
        return {"sandwich_flat": flat_within(scene.quat("sandwich"), FLAT_DEG),
                "sandwich_touches_board": scene.touches(scene.geoms("sandwich"),
                                                        scene.geoms("board"))}


class SandwichToast(_Sandwich):
    """Use the spatula to put the sandwich in the frying pan: it lies flat within 10
    degrees, either face up, and touches the pan. The sandwich starts on the board,
    +-0.02 m, random yaw; pan, spatula and board as in sandwich_remove."""

    name = "sandwich_toast"

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        self.place_cookware(scene, rng)
        x, y = np.array(BOARD_AT) + rng.uniform(-0.02, 0.02, 2)
        self.place(scene, "sandwich", x, y,
                   self.COUNTER_TOP + 2 * ks.BOARD_HALF[2] + ks.SANDWICH_HALF[2] + 0.001,
                   rng.uniform(-np.pi, np.pi))

    def clauses(self, scene: Scene) -> dict[str, bool]:
        return {"sandwich_flat": flat_within(scene.quat("sandwich"), FLAT_DEG),
                "sandwich_touches_pan": scene.touches(scene.geoms("sandwich"),
                                                      scene.geoms("pan"))}


class SandwichFlip(_Sandwich):
    """Flip the sandwich in the frying pan with the spatula: its toasted face (local +z,
    up at the start) points down within 10 degrees, and it touches the pan. The sandwich
    starts in the pan as in sandwich_remove."""

    name = "sandwich_flip"

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        self.sandwich_in_pan(scene, rng, self.place_cookware(scene, rng))

    def clauses(self, scene: Scene) -> dict[str, bool]:
        return {"sandwich_face_down": pred.points_down_within(scene.quat("sandwich"), FLAT_DEG),
                "sandwich_touches_pan": scene.touches(scene.geoms("sandwich"),
                                                      scene.geoms("pan"))}



class StoreKitchenware(_Kitchen):
    """Move the saucepan and the frying pan from the hob into the left cabinet below:
    each touches the cabinet's floor or shelf and is released. Both stand on the hob,
    +-0.02 m, handles toward the robot +-15 degrees; the cabinet door starts fully open.
    No fail-fast."""

    name = "store_kitchenware"
    KITCHEN_Y = -0.45
    ITEMS = ("saucepan", "pan")

    def add_props(self, spec) -> None:
        ks.add_saucepan(spec)
        ks.add_frying_pan(spec)

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        ks.set_opening(scene, "cabinet_left_door", 1.0)
        hob = self.COUNTER_TOP + 0.006 + 0.0005
        for body, (x, y), yaw in KITCHENWARE_ON_HOB:
            dx, dy = rng.uniform(-PAN_JITTER, PAN_JITTER, 2)
            self.place(scene, body, x + dx, y + dy, hob, yaw + rng.uniform(-PAN_YAW, PAN_YAW))

    def clauses(self, scene: Scene) -> dict[str, bool]:
        out: dict[str, bool] = {}
        for body in self.ITEMS:
            out[f"{body}_in_cabinet"] = self.touches(scene, body, "cabinet_left_bottom",
                                                     "cabinet_left_shelf")
            out[f"{body}_released"] = not scene.held(body)
        return out


class _Groceries(_Kitchen):
    """Store a random set of groceries (see the module). The reset draws how many (2 to
    4) and which groceries stand on the counter, in random spots of four 0.14 m apart
    (+-0.02 m, random yaw); the others start stored. No fail-fast."""

    STORAGE: tuple[str, ...] = ()
    STORED_AT: tuple[float, float, float] = (0.0, 0.0, 0.0)  # local x, first y, support top

    def add_props(self, spec) -> None:
        for name in ks.GROCERIES:
            ks.add_grocery(spec, name)

    def open_storage(self, scene: Scene) -> None:
        """Open the doors in front of the storage."""

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        self.open_storage(scene)
        names = list(ks.GROCERIES)
        count = int(rng.integers(2, len(names) + 1))
        chosen = rng.choice(len(names), size=count, replace=False)
        spots = rng.choice(len(GROCERY_SPOTS_Y), size=count, replace=False)
        x, y0, support = self.STORED_AT
        for index, name in enumerate(names):
            half = ks.grocery_half_height(name)
            if index in chosen:
                spot = GROCERY_SPOTS_Y[spots[list(chosen).index(index)]]
                dx, dy = rng.uniform(-GROCERY_JITTER, GROCERY_JITTER, 2)
                self.place(scene, name, 0.2 + dx, spot + dy, self.COUNTER_TOP + half + 0.001,
                           rng.uniform(-np.pi, np.pi))
            else:
                self.place(scene, name, x, y0 + 0.13 * index, support + half + 0.001)

    def clauses(self, scene: Scene) -> dict[str, bool]:
        out: dict[str, bool] = {}
        for name in ks.GROCERIES:
            out[f"{name}_stored"] = self.touches(scene, name, *self.STORAGE)
            out[f"{name}_released"] = not scene.held(name)
        return out


class StoreGroceriesLower(_Groceries):
    """Put a random set of groceries in the cabinets below the counter: each touches the
    floor or shelf of either cabinet and is released. Both cabinet doors start fully
    open; groceries not drawn start on the left cabinet's floor."""

    name = "store_groceries_lower"
    STORAGE = tuple(f"cabinet_{side}_{board}" for side in ("left", "right")
                    for board in ("bottom", "shelf"))
    STORED_AT = (0.30, 0.40, ks.PLINTH)

    def open_storage(self, scene: Scene) -> None:
        for door in ks.LOWER_DOORS:
            ks.set_opening(scene, door, 1.0)


class StoreGroceriesUpper(_Groceries):
    """Put a random set of groceries in the wall cabinet and on the open shelf: each
    touches a wall-cabinet shelf or the open shelf and is released. The glass doors start
    fully open; groceries not drawn start on the open shelf."""

    name = "store_groceries_upper"
    STORAGE = ("wall_shelf_bottom", "wall_shelf_middle", "open_shelf")
    STORED_AT = (0.45, 0.40, ks.OPEN_SHELF[2])

    def open_storage(self, scene: Scene) -> None:
        for door in ks.WALL_DOORS:
            ks.set_opening(scene, door, 1.0)


TASK_CLASSES = (DrawerTopOpen, DrawerTopClose, PickBox, PutCups, SaucepanToHob, SandwichRemove,
                WallCupboardOpen, WallCupboardClose, DrawersOpenAll, DrawersCloseAll,
                CupboardsOpenAll, CupboardsCloseAll, TakeCups, StoreBox, StoreKitchenware,
                SandwichToast, SandwichFlip, StoreGroceriesLower, StoreGroceriesUpper)
