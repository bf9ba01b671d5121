"""Experts for the kitchen-counter tasks that move things (bench.tasks.kitchen):
pick_box, saucepan_to_hob and sandwich_remove. The drawer, cupboard and cup experts
are in ``kitchen``."""

from __future__ import annotations

from bench.policies.experts.script import Expert

EXPERTS: dict[str, type[Expert]] = {}
PENDING: dict[str, str] = {task: "expert not written yet"
                           for task in ("pick_box", "saucepan_to_hob", "sandwich_remove")}
