"""Expert for flip_cutlery (bench.tasks.tabletop): the spoon out of the mug, turned
over, and back in.

The spoon settles leaning about 39 degrees on the mug's rim (its handle inside, its
bowl over the rim toward the mug's handle, in any direction the mug's yaw gives), so
only the bowl is clear of the mug. The hand takes the bowl with the jaw closing across
its thin side (the spoon then lies in the plane of the pads), pointing within the
vertical plane of the spoon: of the candidate pitches, the one the arm reaches that
leaves the hand best placed for the turn. It lifts the spoon out along its own axis,
turns the hand so that the spoon hangs bowl down straight above the mug (the yaw about
the spoon left to what the arm reaches best), lowers it until the bowl's tip is just
above the rim, closed loop on the spoon's measured tip, and lets go: the spoon drops
bowl first into the mug and comes to rest leaning on its rim.
"""

from __future__ import annotations

from collections.abc import Iterator

import mujoco
import numpy as np

from bench.policies.experts.script import Expert
from bench.policies.experts.tabletop import UP, TableTopExpert
from bench.tasks.props import TABLE_TOP
from bench.tasks.tabletop import MUG_HEIGHT

GRIP_AT = 0.085  # m along the spoon's axis from its origin: the middle of the bowl
BOWL_TIP = 0.114  # m along the axis: the far end of the bowl
HANDLE_END = -0.075  # m along the axis: the far end of the handle
RIM = TABLE_TOP + MUG_HEIGHT  # m, height of the mug's rim
APPROACH = 0.07  # m, the open jaw starts this far back along the hand's pointing
PITCHES = np.radians([20.0, 35.0, 50.0, 65.0])  # grasp: hand this far below level
AZIMUTHS = np.radians([0.0, -30.0, 30.0, -60.0, 60.0])  # grasp: about the bowl's bearing
TILTS = np.radians([0.0, 20.0, 35.0])  # turned spoon: this far from pointing straight down
TILT_AZIMUTHS = np.radians(np.arange(0.0, 360.0, 45.0))  # and toward these bearings
YAWS = np.radians(np.arange(-180.0, 180.0, 30.0))  # turned hand: yaws about the spoon tried
REACH_ERROR = 0.004  # weighted inverse-kinematics error below which a pose is reachable
ALONG_PALM = 0.6  # cosine: the spoon may not point closer than this toward the palm
LIFT_ALONG = 0.08  # m, first lift along the spoon's axis (out of the mug)
CARRY_CLEAR = 0.04  # m, the handle's end above the rim while the spoon is turned
DROP_CLEAR = 0.015  # m, the bowl's tip above the rim when the jaw lets go
ALIGN_STEPS = 3  # corrections of the hand from the spoon's measured tip
TURN_STEPS = 90  # control steps for turning the spoon over


class FlipCutlery(TableTopExpert):
    """Take the spoon by its bowl, lift it out, turn it bowl down over the mug, drop it
    in."""

    def script(self) -> Iterator[None]:
        bowl = self.spoon_point(GRIP_AT)
        side = "left" if bowl[1] >= self.kin.pelvis_pose()[1] else "right"
        yield from self.ready(side)
        yield from self.stand_before(bowl, side)
        grasp = self.grasp_rotation(side)
        yield from self.take(side, grasp)
        yield from self.lift(side)
        yield from self.turn_over(side)
        yield from self.drop_in(side)

    def spoon_axis(self) -> np.ndarray:
        """The spoon's axis (handle to bowl) in the world."""
        return self.kin.body_rot("spoon")[:, 2]

    def spoon_point(self, along: float) -> np.ndarray:
        """The point ``along`` metres along the spoon's axis from its origin."""
        return self.kin.body_pos("spoon") + along * self.spoon_axis()

    def grasp_rotation(self, side: str) -> np.ndarray:
        """The hand's rotation for taking the bowl: pointing forward and down (azimuths
        about the bowl's bearing from the pelvis, pitches below level), the jaw closing
        across the spoon's axis. Of the poses the arm reaches (with the approach), the
        one whose pointing is nearest the bowl's direction (the hand then ends nearest
        level when the spoon hangs bowl down), keeping the spoon away from the palm."""
        axis = self.spoon_axis()
        bowl = self.spoon_point(GRIP_AT)
        px, py, _ = self.kin.pelvis_pose()
        bearing = float(np.arctan2(bowl[1] - py, bowl[0] - px))
        best, best_score = None, -np.inf
        for azimuth in bearing + AZIMUTHS:
            for pitch in PITCHES:
                x = np.array([np.cos(pitch) * np.cos(azimuth), np.cos(pitch) * np.sin(azimuth),
                              -np.sin(pitch)])
                score = float(axis @ x)
                if abs(score) > ALONG_PALM or score <= best_score:
                    continue
                y = np.cross(x, axis)
                y /= np.linalg.norm(y)
                for jaw in (y, -y):
                    rot = np.column_stack([x, jaw, np.cross(x, jaw)])
                    if self.pose_error(side, bowl, rot) < REACH_ERROR and \
                            self.pose_error(side, bowl - APPROACH * x, rot) < REACH_ERROR:
                        best, best_score = rot, score
                        break
        if best is None:
            raise RuntimeError("no reachable grasp of the spoon's bowl")
        return best

    def pose_error(self, side: str, pos: np.ndarray, rot: np.ndarray) -> float:
        """Inverse kinematics' remaining error for the pinch pose (pos, rot)."""
        return self.solve(side, pos, rot)[1]

    def solve(self, side: str, pos: np.ndarray, rot: np.ndarray) -> tuple[np.ndarray, float]:
        """Arm angles for the pinch pose (pos, rot) from the current ones, and the error."""
        return self.kin.solve(side, pos, rot, self.arm[side], iterations=100)

    def take(self, side: str, rot: np.ndarray) -> Iterator[None]:
        """Open the jaw, bring the hand behind the bowl in joint space, slide it onto the
        bowl along its pointing, close it."""
        bowl = self.spoon_point(GRIP_AT)
        x = rot[:, 0]
        yield from self.grip(side, 0.0, 10)
        q, _ = self.solve(side, bowl - APPROACH * x, rot)
        yield from self.joints({side: q}, 60)
        yield from self.wait(10)
        yield from self.move({side: (bowl - APPROACH * x, rot)}, 15)
        yield from self.move({side: (bowl, rot)}, 40)
        yield from self.grip(side, 1.0, 15)
        yield from self.wait(10)

    def lift(self, side: str) -> Iterator[None]:
        """Draw the spoon out along its axis, then up until the handle clears the rim."""
        pos, rot = self.commanded_pose(side)
        axis = self.spoon_axis()
        out = pos + LIFT_ALONG * axis
        yield from self.move({side: (out, rot)}, 40, contact=True)
        height = RIM + CARRY_CLEAR + (GRIP_AT - HANDLE_END)
        yield from self.move({side: (np.array([*out[:2], max(height, out[2])]), rot)},
                             contact=True)

    def turn_over(self, side: str) -> Iterator[None]:
        """Turn the hand (in joint space) so that the spoon hangs bowl down, tilted at most
        TILTS, with the pinch over the mug: of the tilts and yaws about the spoon, the
        pose the arm reaches best."""
        pos, rot = self.kin.pinch_pose(side)
        axis = self.spoon_axis()
        mug = self.kin.body_pos("mug")
        above = np.array([mug[0], mug[1], pos[2]])
        best, best_error = None, np.inf
        for tilt in TILTS:
            for toward in TILT_AZIMUTHS if tilt > 0 else (0.0,):
                goal = np.array([np.sin(tilt) * np.cos(toward), np.sin(tilt) * np.sin(toward),
                                 -np.cos(tilt)])
                flip = swing(axis, goal)
                for yaw in YAWS:
                    target = turning(goal, yaw) @ flip @ rot
                    q, error = self.solve(side, above, target)
                    if error < best_error - REACH_ERROR / 4:
                        best, best_error = q, error
            if best_error < REACH_ERROR:
                break
        yield from self.joints({side: best}, TURN_STEPS)
        yield from self.wait(20)

    def drop_in(self, side: str) -> Iterator[None]:
        """Lower the spoon until its tip is just above the rim over the mug's middle
        (closed loop on the measured tip), let go and draw the hand back up."""
        self.hand[side] = self.kin.pinch_pose(side)
        for _ in range(ALIGN_STEPS):
            pos, rot = self.commanded_pose(side)
            tip = self.spoon_point(BOWL_TIP)
            mug = self.kin.body_pos("mug")
            goal = np.array([mug[0], mug[1], RIM + DROP_CLEAR])
            yield from self.move({side: (pos + goal - tip, rot)}, 30, contact=True)
            yield from self.wait(10)
        yield from self.grip(side, 0.0, 10)
        yield from self.wait(30)
        pos, rot = self.commanded_pose(side)
        yield from self.move({side: (pos - 0.05 * rot[:, 0] + 0.08 * UP, rot)}, 40)
        yield from self.wait(20)


def swing(start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """The smallest rotation taking the unit vector ``start`` to ``end``."""
    axis = np.cross(start, end)
    angle = float(np.arctan2(np.linalg.norm(axis), start @ end))
    if np.linalg.norm(axis) < 1e-9:
        return np.eye(3)
    return turning(axis, angle)


def turning(axis: np.ndarray, angle: float) -> np.ndarray:
    """The rotation matrix of ``angle`` (rad) about ``axis``."""
    quat, mat = np.zeros(4), np.zeros(9)
    mujoco.mju_axisAngle2Quat(quat, np.asarray(axis, float) / np.linalg.norm(axis), angle)
    mujoco.mju_quat2Mat(mat, quat)
    return mat.reshape(3, 3)


EXPERTS: dict[str, type[Expert]] = {}
DRAFTS: dict[str, type[Expert]] = {"flip_cutlery": FlipCutlery}
PENDING: dict[str, str] = {
    "flip_cutlery": "draft only (bench.policies.experts:draft), below 90 %: measurements "
                    "in progress",
}
