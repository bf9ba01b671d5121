"""Third-party assets: fetched from pinned PyPI wheels, checked by hash, never committed.

Each source is one wheel, downloaded without its dependencies by pip (so the
machine's package-index configuration applies) and checked against the sha256
pinned below. The files we need are unpacked into a cache outside the repository:

* ``$BENCH_ASSETS_DIR`` when set, otherwise
* ``$XDG_CACHE_HOME/bench/assets`` (``~/.cache/bench/assets``).

The wheel stays in the cache. Every unpacked file is checked against the wheel's
own RECORD, which the pinned wheel hash authenticates, so a missing or modified
file is reported by name together with the command that repairs it.
"""

from __future__ import annotations

import base64
import csv
import functools
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

FETCH_COMMAND = "bench fetch-assets"
REFETCH_COMMAND = "bench fetch-assets --force"


@dataclass(frozen=True)
class WheelSource:
    """One pinned wheel and the part of it that bench uses."""

    name: str  # cache folder and lookup key
    requirement: str  # pip requirement, exact version
    filename: str  # wheel file name on the index
    sha256: str  # hex digest of the wheel file
    prefix: str  # members under this path inside the wheel are unpacked
    licence: str  # as stated by the package, for README and `bench info`

    @property
    def version(self) -> str:
        """The pinned version."""
        return self.requirement.split("==", 1)[1]


SOURCES: dict[str, WheelSource] = {
    source.name: source
    for source in (
        WheelSource(
            name="mjlab",
            requirement="mjlab==1.6.0",
            filename="mjlab-1.6.0-py3-none-any.whl",
            sha256="03d003854e2f44c48330c6dcf4c2253ff7641bb569747846825a21b9efa8540b",
            prefix="mjlab/asset_zoo/robots/unitree_g1/xmls/",
            licence="Apache-2.0",
        ),
        WheelSource(
            name="holosoma",
            requirement="holosoma-inference==0.1.3",
            filename="holosoma_inference-0.1.3-py3-none-any.whl",
            sha256="3c11fd4595bc82921d4c44f77357667828761548c1ce74782ea77937b2ab0ef7",
            prefix="holosoma_inference/models/loco/g1_29dof/",
            licence="none stated in the package metadata",
        ),
    )
}


class AssetError(RuntimeError):
    """Base class for asset problems; the message always names the fix."""


class AssetMissingError(AssetError):
    """An asset file or wheel is not in the cache."""


class AssetHashError(AssetError):
    """An asset file or wheel does not have its expected sha256."""


def cache_root() -> Path:
    """The asset cache folder (``$BENCH_ASSETS_DIR`` or the XDG cache default)."""
    override = os.environ.get("BENCH_ASSETS_DIR")
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "bench" / "assets"


def source_dir(source: WheelSource) -> Path:
    """Folder that holds the unpacked files of one source."""
    return cache_root() / f"{source.name}-{source.version}"


def wheel_path(source: WheelSource) -> Path:
    """Where the cached wheel of one source lives."""
    return cache_root() / "wheels" / source.filename


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _record_hashes(wheel: Path, prefix: str) -> dict[str, str]:
    """Hex sha256 of each wheel member under ``prefix``, from the wheel's RECORD."""
    with zipfile.ZipFile(wheel) as archive:
        record_name = next(n for n in archive.namelist() if n.endswith(".dist-info/RECORD"))
        rows = csv.reader(io.StringIO(archive.read(record_name).decode()))
        hashes = {}
        for row in rows:
            if len(row) < 2 or not row[0].startswith(prefix) or not row[1]:
                continue
            algorithm, _, encoded = row[1].partition("=")
            if algorithm != "sha256":
                raise AssetHashError(f"{wheel}: RECORD uses {algorithm}, expected sha256")
            raw = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))
            hashes[row[0][len(prefix):]] = raw.hex()
    return hashes


def _check_wheel(source: WheelSource, wheel: Path) -> None:
    if not wheel.is_file():
        raise AssetMissingError(
            f"{source.requirement} is not in the asset cache ({wheel} is missing). "
            f"Fetch the assets with: {FETCH_COMMAND}")
    actual = sha256_file(wheel)
    if actual != source.sha256:
        raise AssetHashError(
            f"hash mismatch for {wheel}: sha256 {actual}, expected {source.sha256}. "
            f"Re-fetch with: {REFETCH_COMMAND}")


@functools.cache
def expected_files(name: str) -> dict[str, str]:
    """Relative path -> expected sha256 of every unpacked file of a source.

    Checks the cached wheel against its pinned hash first.
    """
    source = SOURCES[name]
    _check_wheel(source, wheel_path(source))
    return _record_hashes(wheel_path(source), source.prefix)


def verify_source(name: str) -> Path:
    """Check every unpacked file of a source; return its folder.

    Raises AssetMissingError or AssetHashError naming the first bad file and the
    command that repairs it.
    """
    source = SOURCES[name]
    root = source_dir(source)
    for rel, digest in expected_files(name).items():
        path = root / rel
        if not path.is_file():
            raise AssetMissingError(
                f"asset file {path} is missing. Fetch the assets with: {FETCH_COMMAND}")
        actual = sha256_file(path)
        if actual != digest:
            raise AssetHashError(
                f"hash mismatch for asset file {path}: sha256 {actual}, expected {digest}. "
                f"Re-fetch with: {REFETCH_COMMAND}")
    return root


@functools.cache
def _verified_source(name: str) -> Path:
    return verify_source(name)


def asset_path(name: str, rel: str) -> Path:
    """Path of one unpacked file of a source, after the source has been verified.

    Verification runs once per process and source.
    """
    root = _verified_source(name)
    if rel not in expected_files(name):
        raise KeyError(f"{rel!r} is not a file of asset source {name!r}")
    return root / rel


def _download(source: WheelSource, dest: Path) -> None:
    """Download the pinned wheel with pip, without dependencies, and check its hash."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest.parent) as tmp:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                   "--disable-pip-version-check", "--quiet", "-d", tmp, source.requirement]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise AssetMissingError(
                f"pip could not download {source.requirement}:\n{result.stderr.strip()}")
        downloaded = Path(tmp) / source.filename
        _check_wheel(source, downloaded)
        downloaded.replace(dest)


def _unpack(source: WheelSource) -> None:
    """Unpack the source's members into a fresh folder, replacing any old one atomically."""
    root = source_dir(source)
    staging = Path(tempfile.mkdtemp(dir=root.parent, prefix=f".{root.name}-"))
    try:
        with zipfile.ZipFile(wheel_path(source)) as archive:
            for member in archive.namelist():
                if member.startswith(source.prefix) and not member.endswith("/"):
                    target = staging / member[len(source.prefix):]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(archive.read(member))
        if root.exists():
            shutil.rmtree(root)
        staging.rename(root)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


def fetch(name: str, force: bool = False) -> list[str]:
    """Make one source present and verified. Returns what was done, for the log.

    Without ``force`` a damaged cache is an error (it names the bad file); with
    ``force`` the wheel is re-checked (downloaded again only if it is bad) and the
    files are unpacked afresh.
    """
    source = SOURCES[name]
    actions = []
    wheel = wheel_path(source)
    if force or not wheel.is_file():
        try:
            _check_wheel(source, wheel)
        except AssetError:
            _download(source, wheel)
            actions.append(f"downloaded {source.filename}")
    expected_files.cache_clear()
    _verified_source.cache_clear()
    root = source_dir(source)
    if force or not root.exists():
        root.parent.mkdir(parents=True, exist_ok=True)
        _unpack(source)
        actions.append(f"unpacked {len(expected_files(name))} files into {root}")
    verify_source(name)
    return actions


def fetch_all(force: bool = False) -> Iterator[tuple[str, list[str]]]:
    """Fetch every source in turn, yielding (name, actions)."""
    for name in SOURCES:
        yield name, fetch(name, force=force)
