"""How a tournament table asks its tournament for the rules of the next hand and reports a
finished one: a port that the ``tournaments`` app fills at start-up (``AppConfig.ready``).

The table service stays independent of tournaments (tournaments build on tables, not the
reverse); both calls run inside the table write's transaction, so a hand's end, the
eliminations and moves it causes commit together or not at all.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from casino.errors import DomainError
from tables.domain.table import Stakes


class TournamentPort(Protocol):
    """What the table service needs from the tournament that runs a table."""

    def drawn_button(self, *, tournament_id: int, table_id: int) -> int | None:
        """The button the tournament drew for this table's first hand (SEAT-1/SEAT-2, the
        final-table redraw TSEAT-8), or ``None`` to let the table place it."""
        ...

    def check_may_deal(self, *, tournament_id: int, table_id: int) -> None:
        """Refuse a deal the tournament would refuse, before the table counts its players:
        a broken table answered ``not_enough_players``, a cash game's words (found by QA).

        Raises:
            DomainError: the tournament's refusal (``table_not_in_play``, ``on_break`` ...).
        """
        ...

    def table_hand_started(
        self,
        *,
        tournament_id: int,
        table_id: int,
        hand_number: int,
        button_seat: int,
        small_blind_seat: int | None,
        big_blind_seat: int | None,
    ) -> Stakes:
        """The table just dealt ``hand_number`` (not yet committed): record it and return
        the blinds and ante of the level in force (CLK-2).

        Raises:
            DomainError: the table may not deal now (a break, hand-for-hand waiting for
                other tables, TSEAT-9, CLK-7, the tournament not running); the caller's
                transaction then rolls the deal back.
        """
        ...

    def hand_finished(
        self,
        *,
        tournament_id: int,
        table_id: int,
        hand_id: str,
        hand_number: int,
        starting_stacks: dict[int, int],
        final_stacks: dict[int, int],
        voided: bool = False,
    ) -> None:
        """A hand ended: ``{player_id: chips}`` before and after it; ``voided``: a misdeal
        or void (MIS-1..3, MIS-11, MIS-12), redealt, every chip back."""
        ...

    def correct_hand_stacks(
        self, *, tournament_id: int, table_id: int, hand_id: str, adjustments: dict[int, int]
    ) -> None:
        """An upheld dispute about the settled hand ``hand_id`` (SD-24) moves
        ``{player_id: chips}`` (summing to 0) between the tournament's stacks.

        Raises:
            DomainError: the tournament's refusals (a player eliminated or busted by it,
                the next hand begun); the caller's transaction then appends nothing.
        """
        ...

    def killed_hands(self, *, tournament_id: int, table_id: int) -> tuple[int, ...]:
        """Players at the table sitting out a penalty (PEN-2): dealt in, blinds posted,
        hand killed at once."""
        ...

    def break_started_since(self, *, tournament_id: int, since: datetime) -> bool:
        """Whether the tournament went on a break after ``since`` (UTC): a hand settled
        then finished "during a break" and its disputes close a minute later (SD-24)."""
        ...


_port: TournamentPort | None = None


def register(port: TournamentPort) -> None:
    """Install the tournament side (called once by ``tournaments.apps``)."""
    global _port
    _port = port


def port() -> TournamentPort:
    """The installed tournament side.

    Raises:
        DomainError ``tournaments_unavailable``: no tournament app is installed.
    """
    if _port is None:
        raise DomainError("tournaments_unavailable", "No tournament service is installed.")
    return _port
