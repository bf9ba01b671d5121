"""Expert for flip_cutlery (bench.tasks.tabletop): the spoon out of the mug, turned
over, and back in."""

from __future__ import annotations

from bench.policies.experts.script import Expert

EXPERTS: dict[str, type[Expert]] = {}
PENDING: dict[str, str] = {"flip_cutlery": "expert not written yet"}
