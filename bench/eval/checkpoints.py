"""Reporting over training checkpoints (seed 001's reporting convention).

The headline is the mean success rate over the last 5 checkpoints, with its standard
error; the appendix gives the final checkpoint alone and the per-checkpoint peak, both
from the same seed block (there is no separate validation block).
"""

from __future__ import annotations

import math
from typing import Any

HEADLINE_CHECKPOINTS = 5


def _ordered(rates: dict[int, float]) -> list[tuple[int, float]]:
    if not rates:
        raise ValueError("no checkpoints to report")
    return sorted(rates.items())


def headline(rates: dict[int, float], last: int = HEADLINE_CHECKPOINTS) -> dict[str, Any]:
    """Mean success rate over the last ``last`` checkpoints (by training step) and its
    standard error (sample standard deviation / sqrt(n); 0 for a single checkpoint)."""
    chosen = _ordered(rates)[-last:]
    values = [rate for _, rate in chosen]
    mean = sum(values) / len(values)
    if len(values) > 1:
        variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
        stderr = math.sqrt(variance / len(values))
    else:
        stderr = 0.0
    return {"mean": mean, "stderr": stderr, "checkpoints": [step for step, _ in chosen],
            "note": "adjacent checkpoints are correlated; the error is over checkpoints only"}


def peak_final_selection(rates: dict[int, float]) -> dict[str, dict[str, Any]]:
    """The final checkpoint and the peak one (earliest on ties), for the appendix;
    both are measured on the same seed block."""
    ordered = _ordered(rates)
    final_step, final_rate = ordered[-1]
    peak_step, peak_rate = max(ordered, key=lambda item: (item[1], -item[0]))
    return {"final": {"checkpoint": final_step, "success_rate": final_rate},
            "peak": {"checkpoint": peak_step, "success_rate": peak_rate,
                     "label": "per-checkpoint maximum on the evaluation seed block"}}
