"""Static checks run as tests: ruff, mypy, and the rule that the core never imports rclpy."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys

import pytest
from conftest import REPO

# Node shells and ROS helpers may import rclpy; nothing else in bench/ may.
ROS_ALLOWED = ("bench/ros/", "bench/nodes/")


def _tool(name: str) -> str:
    path = shutil.which(name, path=str(REPO / ".venv" / "bin")) or shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed; run scripts/run-tests.sh, which installs it")
    return path


def test_ruff_is_clean():
    paths = ["bench", "nodes", "test", "launch", "scripts"]
    result = subprocess.run([_tool("ruff"), "check", *paths], cwd=REPO, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean():
    result = subprocess.run([_tool("mypy"), "--no-incremental"], cwd=REPO, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def _imported_modules(path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_core_never_imports_rclpy_statically():
    offenders = []
    for path in sorted((REPO / "bench").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if rel.startswith(ROS_ALLOWED):
            continue
        ros = {m for m in _imported_modules(path)
               if m.split(".")[0] in {"rclpy", "bench"} and
               (m.startswith("rclpy") or m.startswith(("bench.ros", "bench.nodes", "bench.msg",
                                                       "bench.srv")))}
        if ros:
            offenders.append(f"{rel}: {sorted(ros)}")
    assert not offenders, "core modules import ROS: " + "; ".join(offenders)


def test_importing_every_core_module_leaves_rclpy_unloaded():
    modules = sorted(
        ".".join(path.relative_to(REPO).with_suffix("").parts)
        for path in (REPO / "bench").rglob("*.py")
        if not path.relative_to(REPO).as_posix().startswith(ROS_ALLOWED)
    )
    code = ("import importlib, sys\n"
            f"for name in {modules!r}: importlib.import_module(name.removesuffix('.__init__'))\n"
            "print('rclpy' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == "False"
