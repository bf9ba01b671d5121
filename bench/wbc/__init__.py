"""Lower-body controllers: a registry of backends and the resolution of the configured one.

* ``groot_wbc_g1``: the official GR00T-WBC Balance/Walk pair, files supplied by the user;
* ``holosoma_g1``: the embedded default (a standing controller paired with holosoma's
  walking policies), used whenever the GR00T files are absent;
* ``floating_base``: the research mode (``make(task, controller=None)``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from bench.config import ControllerConfig
from bench.wbc.base import BaseCommand, LowerBodyController, LowerBodyTargets, RobotState
from bench.wbc.embedded import EmbeddedController
from bench.wbc.floating import FloatingBaseController
from bench.wbc.groot import GrootController, GrootFilesMissingError

__all__ = ["BACKENDS", "BaseCommand", "LowerBodyController", "LowerBodyTargets",
           "ResolvedBackend", "RobotState", "resolve_backend"]

log = logging.getLogger(__name__)

BACKENDS: dict[str, Callable[[ControllerConfig], LowerBodyController]] = {
    "groot_wbc_g1": lambda config: GrootController(config.groot_model_dir),
    "holosoma_g1": lambda config: EmbeddedController(),
    "floating_base": lambda config: FloatingBaseController(),
}


@dataclass
class ResolvedBackend:
    """The controller in use, and why it differs from the requested one if it does."""

    requested: str
    controller: LowerBodyController
    substitution: str | None = None  # human-readable reason, when requested != used

    @property
    def name(self) -> str:
        """Name of the backend in use."""
        return self.controller.name


def resolve_backend(config: ControllerConfig) -> ResolvedBackend:
    """Build the configured backend. ``groot_wbc_g1`` without its files falls back to the
    embedded ``holosoma_g1`` and says so (logged, and carried into every record)."""
    if config.backend not in BACKENDS:
        raise ValueError(f"unknown controller backend {config.backend!r}; "
                         f"known: {sorted(BACKENDS)}")
    try:
        return ResolvedBackend(config.backend, BACKENDS[config.backend](config))
    except GrootFilesMissingError as missing:
        reason = (f"EMBEDDED DEFAULT: holosoma_g1 stands in for groot_wbc_g1 because the "
                  f"GR00T-WBC files are absent ({missing}). It tracks height and torso pitch "
                  f"while standing only, within what its standing controller reaches; "
                  f"results are not leaderboard-comparable.")
        log.warning(reason)
        return ResolvedBackend(config.backend, EmbeddedController(), substitution=reason)
