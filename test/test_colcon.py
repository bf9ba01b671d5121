"""colcon builds the package against the pip wheels, and its install tree works."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

# What a colcon workspace needs from the tree (build outputs and the venv stay out).
SOURCES = ("CMakeLists.txt", "package.xml", "pyproject.toml", "README.md", "msg", "srv",
           "bench", "nodes", "launch", "config", "assets")


def test_colcon_build_against_the_pip_wheels(tmp_path: Path):
    colcon = shutil.which("colcon", path=str(Path(sys.executable).parent))
    if colcon is None:
        pytest.fail("colcon is not installed; run scripts/run-tests.sh, which installs it")
    package = tmp_path / "src" / "bench"
    package.mkdir(parents=True)
    for name in SOURCES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, package / name,
                            ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            shutil.copy2(source, package / name)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    build = subprocess.run(
        [colcon, "build", "--event-handlers", "console_direct-",
         "--cmake-args", f"-DPython3_EXECUTABLE={sys.executable}", "-DBUILD_TESTING=OFF"],
        cwd=tmp_path, capture_output=True, text=True, env=env, timeout=900, check=False)
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]

    prefix = tmp_path / "install" / "bench"
    site = prefix / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" \
        / "site-packages"
    assert (prefix / "share" / "bench" / "package.xml").is_file()
    assert (prefix / "share" / "ament_index" / "resource_index" / "packages" / "bench").is_file()
    assert (prefix / "share" / "bench" / "msg" / "WholeBodyCommand.idl").is_file()
    assert (site / "bench" / "assets.py").is_file()

    # The install tree alone provides the messages and the core (not the venv's copy).
    code = ("import bench, bench.msg, bench.srv; "
            "print(bench.__file__); print(bench.msg.WholeBodyCommand(vx=0.5).vx); "
            "print(bench.srv.Reset.Request(seed=3).seed)")
    env = dict(os.environ, PYTHONPATH=str(site),
               LD_LIBRARY_PATH=f"{prefix / 'lib'}:{os.environ.get('LD_LIBRARY_PATH', '')}")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, env=env, check=False)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.split()
    assert lines[0] == str(site / "bench" / "__init__.py")
    assert lines[1:] == ["0.5", "3"]
