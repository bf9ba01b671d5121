#!/usr/bin/env bash
# Idempotent set-up shared by the README's two commands. Source it; it defines $VENV.
#
#  1. Debian packages, only those missing: a C++ compiler and Python headers (the
#     interfaces are compiled), python3-venv, and Mesa's EGL for offscreen rendering.
#  2. A virtual environment ($BENCH_VENV, default .venv) with requirements/lock.txt.
#  3. bench itself, built from this tree (interfaces included), when the tree changed.
#  4. The third-party assets (bench fetch-assets), downloaded only when absent.
#
# Steps 2-4 keep a stamp in the venv, so a second run downloads and rebuilds nothing.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV=${BENCH_VENV:-$REPO/.venv}
PYTHON=${PYTHON:-python3}

log() { printf '[bootstrap] %s\n' "$*" >&2; }

missing_debian_packages() {
  local missing=()
  command -v c++ >/dev/null 2>&1 || missing+=(g++)
  "$PYTHON" - <<'PY' || missing+=(python3-dev)
import os, sys, sysconfig
sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else 1)
PY
  "$PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
  if command -v dpkg-query >/dev/null 2>&1; then
    local pkg
    for pkg in libegl1 libegl-mesa0 libgl1-mesa-dri; do
      dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' \
        || missing+=("$pkg")
    done
  fi
  echo "${missing[@]}"
}

install_debian_packages() {
  local packages
  packages=$(missing_debian_packages)
  [ -z "$packages" ] && return 0
  log "installing Debian packages: $packages"
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo=sudo; else
      log "need root for: apt-get install -y $packages"; exit 1
    fi
  fi
  # shellcheck disable=SC2086
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
    $sudo apt-get install -y -qq --no-install-recommends $packages >/dev/null
}

tree_hash() {
  # Everything that goes into the built package.
  (cd "$REPO" && find CMakeLists.txt package.xml pyproject.toml msg srv bench nodes launch \
      config assets -type f ! -path '*/__pycache__/*' 2>/dev/null | LC_ALL=C sort \
    | xargs sha256sum | sha256sum | cut -d' ' -f1)
}

stamp_matches() { [ -f "$VENV/.bench-$1" ] && [ "$(cat "$VENV/.bench-$1")" = "$2" ]; }

install_debian_packages

if [ ! -x "$VENV/bin/python" ]; then
  log "creating virtual environment $VENV"
  "$PYTHON" -m venv "$VENV"
fi

lock_hash=$(cat "$REPO/requirements/lock.txt" "$REPO/requirements/nodeps.txt" | sha256sum \
  | cut -d' ' -f1)
if ! stamp_matches lock "$lock_hash"; then
  log "installing pinned packages (requirements/lock.txt, then nodeps.txt without dependencies)"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    -r "$REPO/requirements/lock.txt"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
    -r "$REPO/requirements/nodeps.txt"
  echo "$lock_hash" > "$VENV/.bench-lock"
fi

build_hash=$(tree_hash)
if ! stamp_matches build "$build_hash$lock_hash"; then
  log "building bench (interfaces included)"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    --no-build-isolation --no-deps --force-reinstall "$REPO"
  echo "$build_hash$lock_hash" > "$VENV/.bench-build"
fi

"$VENV/bin/bench" fetch-assets >&2
