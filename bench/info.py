"""What `bench info` reports: versions, assets, render backend and ROS 2 availability.

Nothing here imports rclpy: importability is probed in a child interpreter.
"""

from __future__ import annotations

import ctypes.util
import importlib.metadata
import importlib.util
import os
import subprocess
import sys
from typing import Any

from bench import __version__, assets

_DISTRIBUTIONS = ("mujoco", "onnxruntime", "numpy", "gymnasium", "ros-rclpy")


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def rclpy_status() -> str:
    """'ok' when rclpy imports in a fresh interpreter, else the last line of its error."""
    result = subprocess.run([sys.executable, "-c", "import rclpy"], capture_output=True,
                            text=True, check=False)
    if result.returncode == 0:
        return "ok"
    lines = result.stderr.strip().splitlines()
    return lines[-1] if lines else f"exit code {result.returncode}"


def asset_status() -> list[dict[str, Any]]:
    """One entry per asset source: requirement, folder, wheel hash, state."""
    entries = []
    for name, source in assets.SOURCES.items():
        files: dict[str, str] = {}
        try:
            assets.expected_files.cache_clear()
            files = assets.expected_files(name)
            assets.verify_source(name)
            state = f"ok ({len(files)} files verified)"
        except assets.AssetError as error:
            state = f"ERROR: {error}"
        entries.append({
            "name": name,
            "requirement": source.requirement,
            "path": str(assets.source_dir(source)),
            "wheel_sha256": source.sha256,
            "licence": source.licence,
            "state": state,
            "files": files,  # relative path -> sha256, from the pinned wheel's RECORD
        })
    return entries


def wbc_status() -> dict[str, str]:
    """Which lower-body backend an official env gets on this machine, and why."""
    from bench.wbc import groot

    try:
        folder = groot.model_dir(None)
    except groot.GrootFilesMissingError as missing:
        return {"backend": "holosoma_g1",
                "status": "EMBEDDED DEFAULT in use: results are not leaderboard-comparable. "
                          + str(missing)}
    files = {name: assets.sha256_file(folder / name)
             for name in (groot.BALANCE_FILE, groot.WALK_FILE)}
    return {"backend": "groot_wbc_g1",
            "status": "official GR00T-WBC pair found in " + str(folder),
            **{f"sha256 {name}": digest for name, digest in files.items()}}


def collect() -> dict[str, Any]:
    """Everything `bench info` prints, as a JSON-ready dict."""
    return {
        "bench": __version__,
        "python": sys.version.split()[0],
        "versions": {name: _version(name) for name in _DISTRIBUTIONS},
        "asset_cache": str(assets.cache_root()),
        "wbc": wbc_status(),
        "assets": asset_status(),
        "render": {
            "MUJOCO_GL": os.environ.get("MUJOCO_GL", "(unset; bench uses egl)"),
            "libEGL": ctypes.util.find_library("EGL"),
            "libOSMesa": ctypes.util.find_library("OSMesa"),
        },
        "ros": {
            "rclpy": rclpy_status(),
            "RMW_IMPLEMENTATION": os.environ.get("RMW_IMPLEMENTATION", "(default)"),
            "ROS_DOMAIN_ID": os.environ.get("ROS_DOMAIN_ID", "(default 0)"),
            "launch": importlib.util.find_spec("launch") is not None,
            "launch_ros": importlib.util.find_spec("launch_ros") is not None,
        },
    }


def format_text(report: dict[str, Any]) -> str:
    """Human-readable rendering of `collect()`."""
    lines = [f"bench {report['bench']} (Python {report['python']})", "versions:"]
    lines += [f"  {k}: {v or 'not installed'}" for k, v in report["versions"].items()]
    lines.append(f"asset cache: {report['asset_cache']}")
    for entry in report["assets"]:
        lines += [f"  {entry['requirement']} -> {entry['path']}",
                  f"    wheel sha256 {entry['wheel_sha256']}",
                  f"    licence: {entry['licence']}",
                  f"    {entry['state']}"]
    lines.append("lower-body controller (official envs):")
    lines += [f"  {k}: {v}" for k, v in report["wbc"].items()]
    lines.append("render:")
    lines += [f"  {k}: {v or 'not found'}" for k, v in report["render"].items()]
    ros = report["ros"]
    lines += ["ros 2:",
              f"  rclpy import: {ros['rclpy']}",
              f"  RMW_IMPLEMENTATION: {ros['RMW_IMPLEMENTATION']}",
              f"  ROS_DOMAIN_ID: {ros['ROS_DOMAIN_ID']}",
              "  launch / launch_ros (ROS 2 distribution): "
              + ("present" if ros["launch"] and ros["launch_ros"] else
                 "absent; use `bench launch` to start the graph")]
    return "\n".join(lines)
