"""protocol_violations(env): what makes an env depart from the official benchmark.

Two kinds of departure are listed:

* configuration fields that differ from the task's official configuration, except
  the official overrides, which only change what the policy is handed;
* substrate substitutions: the embedded holosoma_g1 standing in for the GR00T-WBC
  files, and the backend's own limitations: the base commands it follows only in
  part (``LowerBodyController.limitations``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bench.config import OFFICIAL_OVERRIDES

if TYPE_CHECKING:
    from bench.env import BenchEnv


def protocol_violations(env: BenchEnv) -> list[str]:
    """Every departure from the official benchmark; empty for an official env."""
    violations = [name for name in env.config_overrides if name not in OFFICIAL_OVERRIDES]
    backend = env.backend
    if backend.substitution is not None:
        violations.append(
            f"controller.backend: {backend.requested} requested, {backend.name} used "
            "(GR00T-WBC files absent)")
    violations.extend(backend.controller.limitations(env.config.controller))
    return violations
