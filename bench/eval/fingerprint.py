"""The substrate fingerprint of a record: what produced the numbers.

Versions of bench, MuJoCo, onnxruntime and numpy; hashes of the fetched assets (the
pinned wheels and the decimated meshes' manifest); the lower-body backend in use with
the hashes of its model files; and the hash of the resolved configuration.
"""

from __future__ import annotations

import importlib.metadata
import platform
from typing import Any

from bench import __version__, assets, config
from bench.robot import meshes
from bench.wbc import groot, holosoma


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def backend_files(backend: Any) -> dict[str, str]:
    """sha256 of the model files of the lower-body backend in use."""
    controller = backend.controller
    if isinstance(controller, groot.GrootController):
        return {path.name: assets.sha256_file(path) for path in controller.files}
    if isinstance(controller, holosoma.HolosomaController):
        paths = [assets.asset_path("holosoma", name) for name in holosoma.MODEL_FILES]
        return {path.name: assets.sha256_file(path) for path in paths}
    return {}


def fingerprint(env: Any) -> dict[str, Any]:
    """The substrate fingerprint of an env (see the module docstring)."""
    manifest = meshes.decimated_dir() / meshes.MANIFEST
    return {
        "versions": {"bench": __version__, "python": platform.python_version(),
                     "mujoco": _version("mujoco"), "onnxruntime": _version("onnxruntime"),
                     "numpy": _version("numpy")},
        "assets": {source.requirement: source.sha256 for source in assets.SOURCES.values()}
        | {"decimated meshes manifest": assets.sha256_file(manifest)},
        "wbc": {"requested": env.backend.requested, "used": env.backend.name,
                "substitution": env.backend.substitution, "files": backend_files(env.backend)},
        "config_hash": config.config_hash(env.config),
    }
