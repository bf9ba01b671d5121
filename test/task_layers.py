"""Test layers shared by the per-group task tests (test_tasks*.py): a compiled scene
after a seeded reset, success after exactly the 50-step hold (monitor only), and the
same in the floating-base env with real physics."""

from __future__ import annotations

from collections.abc import Callable

import mujoco
import numpy as np

from bench import layout
from bench.env import make
from bench.monitor import TaskMonitor, Termination
from bench.robot import assembly
from bench.sim.world import G1World
from bench.tasks import TASKS, make_task
from bench.tasks.base import Scene, Task


def scene_for(task: str, seed: int = 620000, profile: str | None = None) -> tuple[Scene, Task]:
    """A compiled scene with the task's props after its seeded reset (no physics), under
    the task's official initialization profile unless ``profile`` is given."""
    spec = assembly.robot_spec()
    instance = make_task(task, 0.05)
    instance.initialization_profile = profile or TASKS[task].initialization_profile
    instance.build(spec)
    world = G1World(spec)
    world.reset_to_keyframe()
    scene = Scene(world.model, world.data)
    instance.reset(scene, np.random.default_rng(seed))
    mujoco.mj_forward(scene.model, scene.data)
    return scene, instance


def assert_success_after_exactly_the_hold(scene: Scene, instance: Task) -> None:
    """Every clause holds, and the monitor reports success on the 50th update, not before."""
    assert instance.clauses(scene) and all(instance.clauses(scene).values()), \
        instance.clauses(scene)
    monitor = TaskMonitor(instance, scene.model)
    for step in range(1, 50):
        status = monitor.update(scene.data.qpos, scene.data.qvel, 1.0)
        assert not status.success and not status.done, step
        assert status.held_steps == step
    status = monitor.update(scene.data.qpos, scene.data.qvel, 1.0)
    assert status.success and status.done and status.termination is Termination.SUCCESS


def assert_success_survives_physics(task: str, place: Callable[[object], None]) -> None:
    """The success state that ``place(env)`` constructs is physically stable: in the
    floating-base env (the robot cannot fall or drift), holding still, the episode
    succeeds on exactly the 50th control step."""
    env = make(task, controller=None, camera_keys=())
    try:
        env.reset(seed=620000)
        place(env)
        raw = np.concatenate([[0, 0, 0.74, 0], [0.0] * (env.action_dim - 20),
                              env.arm_targets, [0.0, 0.0]])
        action = layout.normalize(raw, env.action_layout)
        rewards = []
        for _ in range(50):
            _, reward, terminated, _, info = env.step(action)
            rewards.append(reward)
        assert rewards[:49] == [0.0] * 49, info["metrics"]
        assert rewards[49] == 1.0 and terminated and info["termination"] == "success"
    finally:
        env.close()
