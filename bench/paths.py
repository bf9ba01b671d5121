"""Where bench finds its own installed data (MJCF assets, config, launch files)."""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def share_dir() -> Path:
    """The package's share folder: ``$BENCH_SHARE_DIR``, the install's share/bench, or
    the source checkout that holds this package."""
    override = os.environ.get("BENCH_SHARE_DIR")
    candidates = [Path(override)] if override else []
    # <prefix>/lib/pythonX.Y/site-packages/bench -> <prefix>/share/bench
    if len(_PACKAGE.parents) > 3:
        candidates.append(_PACKAGE.parents[3] / "share" / "bench")
    candidates.append(_PACKAGE.parent)  # a source checkout
    for candidate in candidates:
        if (candidate / "assets" / "dex1_1_gripper.xml").is_file():
            return candidate
    raise FileNotFoundError(
        "bench's data folder (assets/, config/) was not found in "
        + ", ".join(map(str, candidates))
        + ". Reinstall with scripts/run-tests.sh, or set BENCH_SHARE_DIR to a checkout.")


def asset_file(name: str) -> Path:
    """Path of one of bench's own asset files (written here, not fetched)."""
    return share_dir() / "assets" / name
