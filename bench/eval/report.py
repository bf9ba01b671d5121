"""``bench report RUN_DIR``: an HTML page with PNG plots over one or more runs.

A run is a folder with ``summaries/episode_<seed>.json`` (and usually ``record.json``);
RUN_DIR may be one run or a folder of runs. Plots: success rate with its standard
error per task, fell share, termination breakdown, episode length histogram.
"""

from __future__ import annotations

import html
import math
from collections import Counter, defaultdict
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt

from bench.eval.records import EpisodeResult, read_summary

TERMINATIONS = ("success", "fell", "timeout", "terminated", "physics_error")


def load_runs(root: Path) -> dict[str, list[EpisodeResult]]:
    """Episode results under ``root``, by task."""
    by_task: dict[str, list[EpisodeResult]] = defaultdict(list)
    for path in sorted(Path(root).rglob("summaries/episode_*.json")):
        result = read_summary(path)
        by_task[result.task].append(result)
    if not by_task:
        raise FileNotFoundError(f"no episode summaries (summaries/episode_*.json) under {root}")
    return dict(sorted(by_task.items()))


def _rate(results: list[EpisodeResult], attribute: str) -> tuple[float, float]:
    """Share of episodes with the attribute, and its binomial standard error."""
    n = len(results)
    p = sum(bool(getattr(r, attribute)) for r in results) / n
    return p, math.sqrt(p * (1 - p) / n)


def _bar(ax, names: list[str], values: list[float], errors: list[float] | None,
         title: str, colour: str) -> None:
    ax.bar(names, values, yerr=errors, capsize=4, color=colour)
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.tick_params(axis="x", rotation=30)


def write_report(root: Path, out: Path | None = None) -> Path:
    """Write ``report.html`` and its PNGs into ``out`` (default: ``root/report``)."""
    runs = load_runs(root)
    out = Path(out or Path(root) / "report")
    out.mkdir(parents=True, exist_ok=True)
    tasks = list(runs)
    success = [_rate(runs[t], "success") for t in tasks]
    fell = [_rate(runs[t], "fell") for t in tasks]

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), constrained_layout=True)
    _bar(axes[0], tasks, [s for s, _ in success], [e for _, e in success],
         "success rate (+- s.e.)", "#3a7d44")
    _bar(axes[1], tasks, [f for f, _ in fell], [e for _, e in fell], "fell share", "#b5443a")
    fig.savefig(out / "success_and_falls.png", dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(10, 3.8), constrained_layout=True)
    bottom = [0.0] * len(tasks)
    for label in TERMINATIONS:
        shares = [Counter(r.termination for r in runs[t])[label] / len(runs[t]) for t in tasks]
        ax.bar(tasks, shares, bottom=bottom, label=label)
        bottom = [b + s for b, s in zip(bottom, shares, strict=True)]
    ax.set_ylim(0, 1)
    ax.set_title("termination breakdown")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.tick_params(axis="x", rotation=30)
    fig.savefig(out / "terminations.png", dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(10, 3.8), constrained_layout=True)
    lengths = [r.env_steps for task in tasks for r in runs[task]]
    low, high = min(lengths), max(lengths)
    edges = np.linspace(low - 50, high + 50, 21)  # shared bins, wide enough for one value
    ax.hist([[r.env_steps for r in runs[t]] for t in tasks], bins=edges.tolist(), label=tasks)
    ax.set_xlabel("episode length (env steps)")
    ax.set_ylabel("episodes")
    ax.set_title("episode length")
    ax.legend(fontsize=8)
    fig.savefig(out / "episode_lengths.png", dpi=110)
    plt.close(fig)

    def counts(task: str) -> str:
        tally = Counter(r.termination for r in runs[task])
        return html.escape(", ".join(f"{k} {v}" for k, v in sorted(tally.items())))

    rows = "".join(
        f"<tr><td>{html.escape(t)}</td><td>{len(runs[t])}</td>"
        f"<td>{s:.1%} &plusmn; {se:.1%}</td><td>{f:.1%}</td><td>{counts(t)}</td></tr>"
        for t, (s, se), (f, _) in zip(tasks, success, fell, strict=True))
    page = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>bench report</title>
<style>body{{font-family:sans-serif;margin:2em;max-width:1100px}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:4px 10px}}
img{{max-width:100%;margin:1em 0}}</style></head><body>
<h1>bench report</h1><p>{html.escape(str(Path(root).resolve()))}</p>
<table><tr><th>task</th><th>episodes</th><th>success (&plusmn; s.e.)</th><th>fell</th>
<th>terminations</th></tr>{rows}</table>
<img src="success_and_falls.png" alt="success rate and fell share">
<img src="terminations.png" alt="termination breakdown">
<img src="episode_lengths.png" alt="episode length histogram">
</body></html>
"""
    path = out / "report.html"
    path.write_text(page)
    return path
