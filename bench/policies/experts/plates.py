"""Experts for move_plate and move_two_plates (bench.tasks.tabletop): plates from
the left draining rack to the right one."""

from __future__ import annotations

from bench.policies.experts.script import Expert

EXPERTS: dict[str, type[Expert]] = {}
PENDING: dict[str, str] = {task: "expert not written yet"
                           for task in ("move_plate", "move_two_plates")}
