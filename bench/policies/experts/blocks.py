"""Expert for stack_blocks (bench.tasks.tabletop): three blocks carried to the far
table and stacked on the green pad."""

from __future__ import annotations

from bench.policies.experts.script import Expert

EXPERTS: dict[str, type[Expert]] = {}
PENDING: dict[str, str] = {"stack_blocks": "expert not written yet"}
