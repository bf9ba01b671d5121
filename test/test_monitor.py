"""The task monitor's labels, one termination kind at a time."""

from __future__ import annotations

import numpy as np
import pytest
import task_states as ts
from test_tasks import scene_for

from bench.monitor import HOLD_STEPS, TaskMonitor, Termination


@pytest.fixture
def success_scene():
    scene, task = scene_for("flip_cup")
    ts.success_state("flip_cup", scene)
    return scene, task


def _base(scene) -> int:
    return scene.model.joint("floating_base_joint").qposadr[0]


def run(monitor, qpos, qvel, steps, **kwargs):
    status = None
    for _ in range(steps):
        status = monitor.update(qpos, qvel, 1.0, **kwargs)
    return status


def test_success_after_the_hold(success_scene):
    scene, task = success_scene
    status = run(TaskMonitor(task, scene.model), scene.data.qpos, scene.data.qvel, HOLD_STEPS)
    assert status.termination is Termination.SUCCESS and status.is_success
    assert status.metrics == {"cup_upright": 1.0, "cup_touches_table": 1.0, "cup_released": 1.0}


def test_interrupted_predicate_restarts_the_hold(success_scene):
    scene, task = success_scene
    monitor = TaskMonitor(task, scene.model)
    run(monitor, scene.data.qpos, scene.data.qvel, HOLD_STEPS - 1)
    lifted = scene.data.qpos.copy()
    adr = scene.model.joint("cup_free").qposadr[0]
    lifted[adr + 2] += 0.02
    status = monitor.update(lifted, scene.data.qvel, 1.0)
    assert status.held_steps == 0 and not status.done
    status = run(monitor, scene.data.qpos, scene.data.qvel, HOLD_STEPS - 1)
    assert not status.done
    assert monitor.update(scene.data.qpos, scene.data.qvel, 1.0).success


def test_a_fall_after_the_predicate_was_met_is_fell(success_scene):
    scene, task = success_scene
    monitor = TaskMonitor(task, scene.model)
    run(monitor, scene.data.qpos, scene.data.qvel, 10)
    fallen = scene.data.qpos.copy()
    fallen[_base(scene) + 2] = 0.2  # pelvis below 0.30 m
    status = run(monitor, fallen, scene.data.qvel, HOLD_STEPS)
    assert status.fell and status.success and not status.is_success
    assert status.termination is Termination.FELL
    assert status.reason.startswith("fell at control step 11")


def test_non_finite_state_is_a_physics_error(success_scene):
    scene, task = success_scene
    qvel = scene.data.qvel.copy()
    qvel[3] = np.nan
    status = TaskMonitor(task, scene.model).update(scene.data.qpos, qvel, 1.0)
    assert status.termination is Termination.PHYSICS_ERROR
    assert status.reason == "non-finite simulator state"


def test_mujoco_warnings_are_a_physics_error(success_scene):
    scene, task = success_scene
    status = TaskMonitor(task, scene.model).update(scene.data.qpos, scene.data.qvel, 1.0,
                                                   warnings=2)
    assert status.termination is Termination.PHYSICS_ERROR
    assert "2 MuJoCo warning(s)" in status.reason


def test_budget_end_is_a_timeout():
    scene, task = scene_for("flip_cup")
    monitor = TaskMonitor(task, scene.model)
    assert not run(monitor, scene.data.qpos, scene.data.qvel, 5).done
    status = monitor.update(scene.data.qpos, scene.data.qvel, 1.0, budget_exhausted=True)
    assert status.termination is Termination.TIMEOUT


def test_pelvis_far_from_the_origin_is_terminated():
    scene, task = scene_for("flip_cup")
    far = scene.data.qpos.copy()
    far[_base(scene):_base(scene) + 2] = [8.0, 6.5]  # 10.3 m
    status = TaskMonitor(task, scene.model).update(far, scene.data.qvel, 1.0)
    assert status.termination is Termination.TERMINATED
    assert status.reason == "pelvis more than 10 m from the origin"


def test_outside_end_is_labelled_and_final():
    scene, task = scene_for("flip_cup")
    monitor = TaskMonitor(task, scene.model)
    status = monitor.end(Termination.TERMINATED, "policy silent for 2.0 s")
    assert status.done and status.reason == "policy silent for 2.0 s"
    again = monitor.update(scene.data.qpos, scene.data.qvel, 1.0)
    assert again.control_step == 0  # nothing is evaluated after the end
