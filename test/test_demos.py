"""Demonstrations: a recorded episode loads back and replays to the same trajectory;
BUDGET_RULE; the registry takes its budgets from bench/tasks/budgets.py."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bench import cli, demos
from bench.env import make
from bench.tasks import TASKS, budgets
from bench.tasks.budgets import DemoBudget, budget_rule


def test_recorded_episode_round_trips_and_replays(tmp_path):
    meta = demos.record("reach_target_single", tmp_path, episodes=1)
    assert [e["seed"] for e in meta["episodes"]] == [demos.DEMO_SEED_START]
    on_disk = json.loads((tmp_path / "metadata.json").read_text())
    assert on_disk["episode_length"] == 60000  # the collector's 6000-control-step cap
    assert on_disk["budget_rule"] == budget_rule(on_disk["longest_env_steps"])
    (episode,) = demos.load(tmp_path)
    steps = meta["episodes"][0]["control_steps"]
    assert episode["action"].shape == (steps, 20) and episode["action"].dtype == np.float32
    assert episode["low_dim"].shape == (steps + 1, 50)
    assert bool(episode["success"]) and not bool(episode["fell"])
    assert "rgb_obs" not in episode  # recorded without cameras
    # Replaying the loaded actions from the same seed reproduces the observations.
    env = make("reach_target_single", camera_keys=(), episode_length=60000)
    try:
        observation, _ = env.reset(seed=int(episode["seed"]))
        replayed = [observation["low_dim"]]
        for action in episode["action"]:
            observation, *_ = env.step(action)
            replayed.append(observation["low_dim"])
        np.testing.assert_array_equal(np.stack(replayed), episode["low_dim"])
        assert env.episode_succeeded()
    finally:
        env.close()


def test_a_batch_can_be_recorded_on_the_floating_base(tmp_path):
    """For experts that need the height or torso-pitch command (NEEDS_COMMAND)."""
    meta = demos.record("reach_target_single", tmp_path, episodes=1, floating_base=True)
    assert meta["backend"] == "floating_base"
    assert meta["env_config"]["controller"]["backend"] == "floating_base"
    (episode,) = demos.load(tmp_path)
    assert bool(episode["success"])


def test_demonstration_seeds_stay_outside_the_evaluation_block(tmp_path):
    with pytest.raises(ValueError, match="overlap the evaluation block"):
        demos.record("reach_target_single", tmp_path, episodes=1, seed_start=619995)


def test_the_collector_cap_can_rise_but_not_fall_below_the_protocol(tmp_path):
    """An expert whose episodes run longer than 6000 control steps gets a higher cap;
    a lower one than the protocol's is refused, naming the option."""
    with pytest.raises(ValueError, match="below the 6000 the protocol asks for; use --cap"):
        demos.record("reach_target_single", tmp_path / "low", episodes=1, cap=5999)
    meta = demos.record("reach_target_single", tmp_path / "high", episodes=1, cap=7000)
    steps_per_control = meta["env_config"]["demo_down_sample_rate"]
    assert meta["episode_length"] == 7000 * steps_per_control
    assert meta["episode_length"] > demos.COLLECTOR_CAP_CONTROL_STEPS * steps_per_control


def test_bench_demos_passes_its_options_and_defaults_to_the_protocol(tmp_path, capsys):
    """`bench demos`: an unset option takes bench.demos' constant (one demonstration at
    the default cap records at 6000 control steps), a cap below it is refused."""
    assert cli.main(["demos", "reach_target_single", "--cap", "100",
                     "--out", str(tmp_path / "low")]) == 2
    assert "use --cap" in capsys.readouterr().err
    assert cli.main(["demos", "reach_target_single", "--episodes", "1",
                     "--out", str(tmp_path / "one")]) == 0
    meta = json.loads((tmp_path / "one" / "metadata.json").read_text())
    assert meta["episode_length"] == (demos.COLLECTOR_CAP_CONTROL_STEPS
                                      * meta["env_config"]["demo_down_sample_rate"])
    assert [e["seed"] for e in meta["episodes"]] == [demos.DEMO_SEED_START]


def test_loading_a_missing_batch_names_the_command(tmp_path):
    with pytest.raises(FileNotFoundError, match="bench demos TASK"):
        demos.load(tmp_path)


def test_budget_rule():
    assert budget_rule(930) == 2000  # the floor
    assert budget_rule(1000) == 2000
    assert budget_rule(1001) == 2500  # 2002 rounds up to the next 500
    assert budget_rule(1650) == 3500
    assert budget_rule(4000) == 8000


def test_registry_applies_the_demonstration_budgets(monkeypatch):
    for name, demo in budgets.DEMO_BUDGETS.items():
        assert TASKS[name].episode_length == demo.budget
        assert TASKS[name].budget_source.startswith("BUDGET_RULE on")
    monkeypatch.setitem(budgets.DEMO_BUDGETS, "flip_cup", DemoBudget(2600, 60, 700000))
    applied = budgets.apply(dict(TASKS))
    assert applied["flip_cup"].episode_length == 5500
    assert "longest 2600 env steps" in applied["flip_cup"].budget_source
    assert applied["move_plate"] == TASKS["move_plate"] or "move_plate" in budgets.DEMO_BUDGETS


def test_worker_processes_record_the_same_batch(tmp_path):
    """Two workers keep the first successful seeds in order, with the same arrays."""
    alone = demos.record("reach_target_single", tmp_path / "alone", episodes=2)
    pooled = demos.record("reach_target_single", tmp_path / "pooled", episodes=2, workers=2)
    assert pooled["episodes"] == alone["episodes"]
    assert pooled["failed_seeds"] == alone["failed_seeds"]
    for one, other in zip(demos.load(tmp_path / "alone"), demos.load(tmp_path / "pooled"),
                          strict=True):
        assert one.keys() == other.keys()
        for key in one:
            np.testing.assert_array_equal(one[key], other[key])
