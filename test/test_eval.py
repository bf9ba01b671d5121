"""The evaluation protocol: seeds, records and their refusals, resumable runs, the runner."""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import counting_policy
import pytest
from groot_fakes import write_fakes

from bench.env import make
from bench.eval import (
    RecordRefusedError,
    eval_seeds,
    evaluate,
    leaderboard_record,
)
from bench.eval.records import read_summary

# the module (bench.eval's own ``fingerprint`` attribute is the function)
fingerprint_module = importlib.import_module("bench.eval.fingerprint")

SHORT = {"episode_length": 100}  # 10 control steps


def test_eval_seeds_are_one_contiguous_block():
    assert eval_seeds() == list(range(620000, 620100))
    assert eval_seeds(3) == [620000, 620001, 620002]


def test_policy_reset_is_called_between_episodes():
    counting_policy.RESETS.clear()
    policy = counting_policy.make("move_plate")
    result = evaluate(policy, "move_plate", "count", SHORT, episodes=3, progress=False)
    assert counting_policy.RESETS == [0, 10, 20]  # before each episode of 10 steps
    assert [r["seed"] for r in result["results"]] == [620000, 620001, 620002]
    assert result["record"] is None  # fewer than 100 episodes, and an override
    assert "episode_length" in result["protocol_violations"]
    assert result["env_config"]["episode_length"] == 100


@pytest.fixture
def official_env(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCH_GROOT_WBC_DIR", str(write_fakes(tmp_path / "groot")))
    # 300 control steps (the episodes only feed the record's checks), not flip_cup's
    # 1700-step budget; the short config is then treated as the official one
    env = make("flip_cup", controller={"reset_warmup_steps": 1}, episode_length=3000)
    env.official_config = env.config
    yield env
    env.close()


def _results(env, seeds):
    from bench.eval.episode import run_episode
    policy = counting_policy.make("flip_cup")
    return [run_episode(env, policy, seed) for seed in seeds]


def test_record_has_the_substrate_fingerprint(official_env):
    results = _results(official_env, [620000, 620001])
    record = leaderboard_record(results, official_env, "m")
    fp = record["fingerprint"]
    assert fp["wbc"]["used"] == "groot_wbc_g1"
    assert set(fp["wbc"]["files"]) == {"GR00T-WholeBodyControl-Balance.onnx",
                                           "GR00T-WholeBodyControl-Walk.onnx"}
    assert fp["versions"]["mujoco"] and fp["versions"]["onnxruntime"]
    assert "mjlab==1.6.0" in fp["assets"] and len(fp["config_hash"]) == 64
    assert fp["wbc"]["code"] == fingerprint_module.controller_code()
    assert record["seeds"] == [620000, 620001]


def test_the_fingerprint_changes_with_the_standing_controllers_code(tmp_path, monkeypatch):
    """The embedded default's stance is code and parameters, not a model file: a change
    to any lower-body controller module changes the record's fingerprint."""
    copy = tmp_path / "wbc"
    copy.mkdir()
    for path in fingerprint_module.WBC_PACKAGE.glob("*.py"):
        (copy / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(fingerprint_module, "WBC_PACKAGE", copy)
    before = fingerprint_module.controller_code()
    stance = copy / "stance.py"
    source = stance.read_text()
    assert "com_kp: float = " in source
    stance.write_text(source.replace("com_kp: float = ", "com_kp: float = 1 + "))
    assert fingerprint_module.controller_code() != before


def test_record_refuses_a_non_contiguous_seed_set(official_env):
    results = _results(official_env, [620000, 620002])
    with pytest.raises(RecordRefusedError, match="not one contiguous block"):
        leaderboard_record(results, official_env, "m")


def test_record_refuses_a_results_affecting_override(official_env, monkeypatch):
    results = _results(official_env, [620000])
    official = official_env.official_config
    from dataclasses import replace
    official_env.official_config = replace(official, camera_shape=(64, 64))
    with pytest.raises(RecordRefusedError, match=r"results-affecting overrides.*camera_shape"):
        leaderboard_record(results, official_env, "m")


def _runner(run_dir: Path, out: Path, episodes: int) -> list[str]:
    return [sys.executable, "-m", "bench.eval.runner", "--task", "reach_target_single",
            "--method", "m", "--policy", "bench.policies.builtin:wave", "--out", str(out),
            "--episodes", str(episodes), "--run-dir", str(run_dir), "--override",
            "episode_length=300", "--quiet"]


def test_a_killed_run_resumes_to_the_same_record(tmp_path):
    env = dict(os.environ)
    whole = tmp_path / "whole"
    subprocess.run(_runner(whole, tmp_path / "whole.json", 4), env=env, check=True,
                   capture_output=True, timeout=600)

    resumed = tmp_path / "resumed"
    process = subprocess.Popen(_runner(resumed, tmp_path / "resumed.json", 4), env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    summaries = resumed / "summaries"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(list(summaries.glob("*.json"))) < 2:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    done_before = sorted(p.name for p in summaries.glob("*.json"))
    assert 2 <= len(done_before) < 4, done_before  # killed halfway
    subprocess.run(_runner(resumed, tmp_path / "resumed.json", 4), env=env, check=True,
                   capture_output=True, timeout=600)
    for name in sorted(p.name for p in (whole / "summaries").glob("*.json")):
        assert read_summary(resumed / "summaries" / name) == read_summary(
            whole / "summaries" / name)
    assert (resumed / "record.json").read_text() == (whole / "record.json").read_text()
    a = json.loads((tmp_path / "whole.json").read_text())
    b = json.loads((tmp_path / "resumed.json").read_text())
    assert a["results"] == b["results"]


def test_runner_reports_bad_input_with_a_clear_error(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "bench.cli", "eval", "--task", "flip_mug", "--method", "m",
         "--policy", "bench.policies.builtin:hold", "--out", str(tmp_path / "r.json")],
        capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert "unknown task 'flip_mug'" in result.stderr
    result = subprocess.run(
        [sys.executable, "-m", "bench.cli", "eval", "--task", "flip_cup", "--method", "m",
         "--policy", "no_such_module:make", "--out", str(tmp_path / "r.json")],
        capture_output=True, text=True, check=False)
    assert result.returncode == 2 and "cannot import 'no_such_module'" in result.stderr


def test_the_same_evaluation_through_the_graph_gives_identical_results(ros_domain, tmp_path):
    args = ("bench.policies.builtin:wave", "reach_target_single", "m", {"episode_length": 200})
    in_process = evaluate(*args, episodes=2, progress=False)
    graph = evaluate(*args, episodes=2, run_dir=tmp_path / "graph", progress=False, via="graph")
    assert graph["results"] == in_process["results"]
    assert graph["summary"] == in_process["summary"]
    assert graph["protocol_violations"] == in_process["protocol_violations"]


def test_graph_mode_needs_a_policy_spec():
    with pytest.raises(ValueError, match="module:factory string"):
        evaluate(counting_policy.make("move_plate"), "move_plate", "m", SHORT, episodes=1,
                 via="graph")


def test_worker_processes_give_the_files_of_the_sequential_run(tmp_path):
    """Three expert episodes over two workers: the same summaries and metrics files,
    byte for byte, and the same results, in seed order."""
    args = ("bench.policies.experts:expert", "reach_target_single", "m", {"camera_keys": []})
    alone = evaluate(*args, episodes=3, run_dir=tmp_path / "alone", progress=False)
    pooled = evaluate(*args, episodes=3, run_dir=tmp_path / "pooled", progress=False,
                      workers=2)
    assert pooled["results"] == alone["results"]
    assert [r["seed"] for r in pooled["results"]] == [620000, 620001, 620002]
    for folder in ("summaries", "metrics"):
        names = sorted(p.name for p in (tmp_path / "alone" / folder).iterdir())
        assert len(names) == 3
        for name in names:
            assert (tmp_path / "pooled" / folder / name).read_bytes() == (
                tmp_path / "alone" / folder / name).read_bytes()
    assert sorted(json.loads((tmp_path / "pooled" / "timing.json").read_text())) == [
        "620000", "620001", "620002"]


def test_workers_need_a_policy_spec_and_the_in_process_wiring():
    with pytest.raises(ValueError, match="module:factory string"):
        evaluate(counting_policy.make("move_plate"), "move_plate", "m", SHORT, episodes=1,
                 workers=2)
    with pytest.raises(ValueError, match="via='process'"):
        evaluate("bench.policies.builtin:hold", "move_plate", "m", SHORT, episodes=1,
                 workers=2, via="graph")
    with pytest.raises(ValueError, match="workers=0: give 1 or more"):
        evaluate("bench.policies.builtin:hold", "move_plate", "m", SHORT, episodes=1,
                 workers=0)


def test_headline_is_the_mean_of_the_last_five_checkpoints_with_its_standard_error():
    from bench.eval.checkpoints import headline, peak_final_selection
    rates = {5000: 0.1, 10000: 0.5, 15000: 0.2, 20000: 0.3, 25000: 0.4, 30000: 0.6, 35000: 0.5}
    head = headline(rates)
    assert head["checkpoints"] == [15000, 20000, 25000, 30000, 35000]
    assert head["mean"] == pytest.approx(0.4)
    assert head["stderr"] == pytest.approx((0.025 / 5) ** 0.5)  # sample variance 0.025
    selection = peak_final_selection(rates)
    assert selection["final"] == {"checkpoint": 35000, "success_rate": 0.5}
    assert selection["peak"]["checkpoint"] == 30000
    assert peak_final_selection({1: 0.5, 2: 0.5})["peak"]["checkpoint"] == 1  # earliest tie
    with pytest.raises(ValueError, match="no checkpoints"):
        headline({})


def test_checkpoints_mode_reports_the_headline(tmp_path):
    out = tmp_path / "ckpt.json"
    result = subprocess.run(
        [sys.executable, "-m", "bench.cli", "eval", "--task", "reach_target_single",
         "--method", "m", "--episodes", "1", "--override", "episode_length=50", "--quiet",
         "--checkpoint", "5000=bench.policies.builtin:hold",
         "--checkpoint", "10000=bench.policies.builtin:wave", "--out", str(out)],
        capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(out.read_text())
    assert report["headline"]["checkpoints"] == [5000, 10000]
    assert set(report["checkpoints"]) == {"5000", "10000"}
    assert report["appendix"]["final"]["checkpoint"] == 10000


def test_report_writes_a_page_and_the_plots(tmp_path):
    from bench.eval.records import EpisodeResult, write_summary
    from bench.eval.report import write_report

    for i, (term, fell) in enumerate([("success", False), ("timeout", False), ("fell", True),
                                      ("success", False)]):
        write_summary(tmp_path / "run_a", EpisodeResult(
            task="flip_cup", seed=620000 + i, success=term == "success", task_success=
            term == "success", fell=fell, termination=term, reason="", control_steps=10 * i,
            env_steps=100 * i))
    page = write_report(tmp_path)
    text = page.read_text()
    assert "flip_cup" in text and "50.0% &plusmn; 25.0%" in text  # 2 of 4, s.e. 0.25
    assert "fell 1, success 2, timeout 1" in text
    for png in ("success_and_falls.png", "terminations.png", "episode_lengths.png"):
        data = (page.parent / png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
    with pytest.raises(FileNotFoundError, match="no episode summaries"):
        write_report(tmp_path / "empty")


def test_videos_hold_one_frame_per_control_step(tmp_path):
    import imageio_ffmpeg

    result = evaluate("bench.policies.builtin:wave", "reach_target_single", "m",
                      {"episode_length": 200}, episodes=1, run_dir=tmp_path, progress=False,
                      videos=True)
    steps = result["results"][0]["control_steps"]
    folder = tmp_path / "videos" / "episode_620000"
    for name in ("head.mp4", "external.mp4"):
        frames, seconds = imageio_ffmpeg.count_frames_and_secs(str(folder / name))
        assert frames == steps + 1  # the initial observation and one per step
        assert seconds == pytest.approx((steps + 1) / 50, abs=0.05)
    assert "render_mode" not in result["protocol_violations"]  # an official override
    with pytest.raises(ValueError, match="videos need a run_dir"):
        evaluate("bench.policies.builtin:hold", "flip_cup", "m", episodes=1, videos=True)
