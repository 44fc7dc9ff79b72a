"""Show poker tournament levels (SHOW-1): timed levels while several tables play; in the
single- or final-table phase the blinds go up after a set number of hands. Pure."""

from __future__ import annotations

from typing import Literal

Phase = Literal["multi_table", "final_table"]


def level_index(
    *,
    phase: Phase,
    seconds_in_phase: int,
    hands_in_phase: int,
    level_seconds: int,
    hands_per_level: int,
    level_at_phase_start: int = 0,
) -> int:
    """The blind level (0-based) in force.

    ``multi_table``: one level per ``level_seconds`` of play; ``final_table``: one level per
    ``hands_per_level`` hands dealt since the phase began (SHOW-1; N is a setting, the
    document does not give it). Counting restarts at ``level_at_phase_start``.
    """
    if level_seconds <= 0 or hands_per_level <= 0:
        raise ValueError("level lengths must be positive")
    if phase == "final_table":
        return level_at_phase_start + hands_in_phase // hands_per_level
    return level_at_phase_start + seconds_in_phase // level_seconds
