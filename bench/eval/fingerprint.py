"""The substrate fingerprint of a record: what produced the numbers.

Versions of bench, MuJoCo, onnxruntime and numpy; hashes of the fetched assets (the
pinned wheels and the decimated meshes' manifest); the lower-body backend in use with
the hashes of its model files and of the controllers' source (the embedded default's
standing controller is code and parameters, not a model file); and the hash of the
resolved configuration.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import platform
from pathlib import Path
from typing import Any

from bench import __version__, assets, config
from bench.robot import meshes
from bench.wbc import embedded, groot, holosoma

WBC_PACKAGE = Path(embedded.__file__).parent


def controller_code() -> str:
    """sha256 over the source of every lower-body controller module (bench/wbc/*.py):
    the standing controller's parameters and logic live there, not in model files."""
    digest = hashlib.sha256()
    for path in sorted(WBC_PACKAGE.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


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
    if isinstance(controller, embedded.EmbeddedController):
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
                "substitution": env.backend.substitution, "files": backend_files(env.backend),
                "code": controller_code()},
        "config_hash": config.config_hash(env.config),
    }
