"""Decimated visual meshes for fast offscreen rendering on a CPU.

The G1 meshes have about 390k triangles; three 84x84 cameras render in about 65 ms
with them and about 15 ms with about 30k. The collision geometry is primitive, and
the visual geoms have no mass, so decimation changes pictures, not physics.

The decimated set is derived at fetch time (PyPI ``fast-simplification``) into its
own cache folder, with a manifest of sha256 hashes that loading checks.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from bench import assets

TARGET_FACES = 25_000  # requested triangles over all visual meshes (about 30k result)
MANIFEST = "manifest.json"
_VERSION = 1  # bump when the decimation changes; the folder name carries it


def decimated_dir() -> Path:
    """Folder of the decimated G1 meshes."""
    source = assets.SOURCES["mjlab"]
    return assets.cache_root() / f"{source.name}-{source.version}-decimated-v{_VERSION}"


def read_stl(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (n, 3) float32 and triangles (m, 3) int of a binary STL, deduplicated."""
    raw = path.read_bytes()
    count = int(np.frombuffer(raw, np.uint32, 1, 80)[0])
    records = np.frombuffer(raw, np.dtype([("normal", "<f4", 3), ("v", "<f4", (3, 3)),
                                           ("attr", "<u2")]), count, 84)
    corners = records["v"].reshape(-1, 3)
    vertices, inverse = np.unique(corners, axis=0, return_inverse=True)
    return vertices, inverse.reshape(-1, 3)


def write_stl(path: Path, vertices: np.ndarray, faces: np.ndarray) -> None:
    """Write a binary STL with per-face normals."""
    tri = vertices[faces].astype(np.float32)
    normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-12)
    records = np.zeros(len(faces), np.dtype([("normal", "<f4", 3), ("v", "<f4", (3, 3)),
                                             ("attr", "<u2")]))
    records["normal"], records["v"] = normal, tri
    header = b"bench decimated mesh".ljust(80, b" ")
    path.write_bytes(header + np.uint32(len(faces)).tobytes() + records.tobytes())


def build_decimated(force: bool = False) -> list[str]:
    """Derive the decimated meshes from the verified mjlab files. Returns log lines."""
    import fast_simplification

    out = decimated_dir()
    if out.exists() and not force:
        verify_decimated()
        return []
    source_root = assets.verify_source("mjlab") / "assets"
    meshes = sorted(source_root.glob("*.STL"))
    loaded = {path.name: read_stl(path) for path in meshes}
    total = sum(len(faces) for _, faces in loaded.values())
    keep = min(1.0, TARGET_FACES / total)
    out.mkdir(parents=True, exist_ok=True)
    manifest = {}
    for name, (vertices, faces) in loaded.items():
        if keep < 1.0 and len(faces) > 200:
            vertices, faces = fast_simplification.simplify(vertices, faces, 1.0 - keep)
        write_stl(out / name, vertices, faces)
        manifest[name] = assets.sha256_file(out / name)
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True))
    kept = sum(len(read_stl(out / name)[1]) for name in manifest)
    return [f"decimated {len(manifest)} meshes from {total:,} to {kept:,} triangles into {out}"]


def verify_decimated() -> Path:
    """Check the decimated meshes against their manifest; return the folder."""
    out = decimated_dir()
    manifest_path = out / MANIFEST
    if not manifest_path.is_file():
        raise assets.AssetMissingError(
            f"decimated meshes {out} are missing. Fetch the assets with: {assets.FETCH_COMMAND}")
    for name, digest in json.loads(manifest_path.read_text()).items():
        path = out / name
        if not path.is_file() or assets.sha256_file(path) != digest:
            raise assets.AssetHashError(
                f"hash mismatch for decimated mesh {path}. "
                f"Re-fetch with: {assets.REFETCH_COMMAND}")
    return out
