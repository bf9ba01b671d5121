"""Task registry: one small class per task, registered by name.

The registry is filled by the task issues; until then it is empty.
"""

from __future__ import annotations

from typing import Any

TASKS: dict[str, Any] = {}
