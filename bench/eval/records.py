"""Episode results and their files: one deterministic JSON summary per episode, written
atomically, identical whichever wiring (in process or ROS graph) produced it."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class EpisodeResult:
    """The outcome of one episode."""

    task: str
    seed: int
    success: bool  # task success and never fell (is_success)
    task_success: bool  # the task reported success
    fell: bool
    termination: str  # fell, success, physics_error, timeout or terminated
    reason: str
    control_steps: int
    env_steps: int
    final_metrics: dict[str, float] = field(default_factory=dict)
    ever_true: dict[str, bool] = field(default_factory=dict)
    first_true_step: dict[str, int | None] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict; ``outcome`` repeats the termination label (002 naming)."""
        return {**asdict(self), "outcome": self.termination, "step": self.control_steps}


class MetricTracker:
    """Per-metric ``ever_true`` and ``first_true_step`` over an episode, and one row per
    control step for ``metrics/episode_<seed>.jsonl``. Clauses are 0/1; for a
    continuous metric (a part's ``<part>_position``) "true" means nonzero: the part
    left its closed position at some step."""

    def __init__(self) -> None:
        self.ever_true: dict[str, bool] = {}
        self.first_true_step: dict[str, int | None] = {}
        self.last: dict[str, float] = {}
        self.rows: list[dict[str, Any]] = []

    def update(self, step: int, metrics: dict[str, float], held_steps: int = 0,
               fell: bool = False) -> None:
        """Record the metrics of one control step."""
        self.last = dict(metrics)
        self.rows.append({"step": step, "held_steps": held_steps, "fell": fell, **metrics})
        for name, value in metrics.items():
            true = bool(value)
            self.ever_true[name] = self.ever_true.get(name, False) or true
            if true and self.first_true_step.get(name) is None:
                self.first_true_step[name] = step
            self.first_true_step.setdefault(name, None)


def atomic_write_text(path: Path, text: str) -> None:
    """Write a file so that readers see either the old or the complete new content."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def summary_path(run_dir: Path, seed: int) -> Path:
    """``<run_dir>/summaries/episode_<seed>.json``."""
    return Path(run_dir) / "summaries" / f"episode_{seed}.json"


def write_summary(run_dir: Path, result: EpisodeResult) -> Path:
    """Write one episode's summary atomically; returns its path."""
    path = summary_path(run_dir, result.seed)
    atomic_write_text(path, json.dumps(result.to_dict(), indent=2, sort_keys=True) + "\n")
    return path


def write_metrics(run_dir: Path, seed: int, rows: list[dict[str, Any]]) -> Path:
    """Write ``metrics/episode_<seed>.jsonl``, one JSON line per control step."""
    path = Path(run_dir) / "metrics" / f"episode_{seed}.jsonl"
    atomic_write_text(path, "".join(json.dumps(row, sort_keys=True) + "\n" for row in rows))
    return path


def read_summary(path: Path) -> EpisodeResult:
    """Load a summary written by write_summary."""
    data = json.loads(Path(path).read_text())
    data.pop("outcome", None)
    data.pop("step", None)
    return EpisodeResult(**data)
