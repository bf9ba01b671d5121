"""`bench fetch-assets` and `bench info` against a private copy of the asset cache."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench import assets


def _bench(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, BENCH_ASSETS_DIR=str(cache))
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, env=env, timeout=600, check=False)


@pytest.fixture
def cache_copy(tmp_path: Path) -> Path:
    """A copy of the verified asset cache that a test may damage."""
    for name in assets.SOURCES:
        assets.verify_source(name)
    copy = tmp_path / "assets"
    shutil.copytree(assets.cache_root(), copy)
    return copy


def test_fetch_assets_on_a_complete_cache_downloads_nothing(cache_copy):
    result = _bench("fetch-assets", cache=cache_copy)
    assert result.returncode == 0, result.stderr
    assert "downloaded" not in result.stdout
    # every wheel source, plus the decimated meshes derived from mjlab
    assert result.stdout.count("already present, hashes verified") == len(assets.SOURCES) + 1


def test_tampered_file_fails_with_a_hash_error_naming_it(cache_copy):
    victim = cache_copy / "holosoma-0.1.3" / "ppo_g1_29dof.onnx"
    victim.write_bytes(victim.read_bytes()[:-1] + b"\x00")
    result = _bench("fetch-assets", cache=cache_copy)
    assert result.returncode == 1
    assert "hash mismatch" in result.stderr
    assert str(victim) in result.stderr
    assert "bench fetch-assets --force" in result.stderr

    repaired = _bench("fetch-assets", "--force", cache=cache_copy)
    assert repaired.returncode == 0, repaired.stderr
    assert "downloaded" not in repaired.stdout  # the cached wheel was still good
    assert assets.sha256_file(victim) == assets._record_hashes(
        assets.wheel_path(assets.SOURCES["holosoma"]), assets.SOURCES["holosoma"].prefix
    )["ppo_g1_29dof.onnx"]


def test_missing_file_names_the_fetch_command(cache_copy, monkeypatch):
    (cache_copy / "mjlab-1.6.0" / "g1.xml").unlink()
    monkeypatch.setenv("BENCH_ASSETS_DIR", str(cache_copy))
    assets.expected_files.cache_clear()
    with pytest.raises(assets.AssetMissingError, match="bench fetch-assets"):
        assets.verify_source("mjlab")
    assets.expected_files.cache_clear()


def test_tampered_wheel_is_reported_by_name(cache_copy):
    wheel = cache_copy / "wheels" / assets.SOURCES["mjlab"].filename
    with wheel.open("ab") as handle:
        handle.write(b"junk")
    result = _bench("info", "--json", cache=cache_copy)
    report = json.loads(result.stdout)
    state = {entry["name"]: entry["state"] for entry in report["assets"]}
    assert state["mjlab"].startswith("ERROR: hash mismatch for " + str(wheel))
    assert state["holosoma"].startswith("ok")


def test_info_reports_versions_paths_hashes_and_ros(cache_copy):
    result = _bench("info", "--json", cache=cache_copy)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["versions"]["mujoco"] and report["versions"]["onnxruntime"]
    assert report["asset_cache"] == str(cache_copy)
    for entry in report["assets"]:
        source = assets.SOURCES[entry["name"]]
        assert entry["wheel_sha256"] == source.sha256
        assert entry["path"] == str(cache_copy / f"{source.name}-{source.version}")
        assert entry["state"].startswith("ok")
        assert len(entry["files"]) == len(assets.expected_files(source.name))
    assert report["ros"]["rclpy"] == "ok"
    assert report["wbc"]["backend"] in ("groot_wbc_g1", "holosoma_g1")
    assert isinstance(report["ros"]["launch"], bool)
    text = _bench("info", cache=cache_copy).stdout
    assert assets.SOURCES["mjlab"].sha256 in text


def test_info_says_loudly_when_the_embedded_default_stands_in(cache_copy, tmp_path):
    from groot_fakes import write_fakes

    env = dict(os.environ, BENCH_ASSETS_DIR=str(cache_copy))
    env.pop("BENCH_GROOT_WBC_DIR", None)
    absent = subprocess.run([sys.executable, "-m", "bench.cli", "info"], capture_output=True,
                            text=True, env=env, check=True).stdout
    assert "backend: holosoma_g1" in absent and "EMBEDDED DEFAULT in use" in absent
    env["BENCH_GROOT_WBC_DIR"] = str(write_fakes(tmp_path / "groot"))
    present = subprocess.run([sys.executable, "-m", "bench.cli", "info"], capture_output=True,
                             text=True, env=env, check=True).stdout
    assert "backend: groot_wbc_g1" in present and "sha256 GR00T-WholeBodyControl-Walk.onnx" \
        in present


def test_tasks_lists_the_registry():
    from bench.tasks import TASKS

    result = subprocess.run([sys.executable, "-m", "bench.cli", "tasks"], capture_output=True,
                            text=True, check=True)
    listed = [line for line in result.stdout.splitlines() if line]
    assert listed == (sorted(TASKS) or ["no tasks registered yet"])


def test_selftest_passes():
    result = subprocess.run([sys.executable, "-m", "bench.cli", "selftest"],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    from bench.selftest import CHECKS

    assert result.stdout.count("ok    ") == len(CHECKS)
