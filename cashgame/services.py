"""Cash-game command handlers: top-ups, refreshments, limit overrides, transfers, closing a
table, sidebets. Keyword-only; they run in the caller's transaction and raise
:class:`casino.errors.DomainError` on refusal (nothing appended). Amounts in whole CZK.
"""

from __future__ import annotations

import uuid

from django.conf import settings

from cashgame import cage
from cashgame.models import SeatingRestriction
from casino.errors import DomainError
from casino.eventstore import context
from casino.models import require_player
from tables.domain import table as table_domain
from tables.services import check_seating_restrictions, execute_on_table, load_table


def top_up(
    *,
    table_id: int,
    seat: int,
    amount: int,
    paid_with: str = "cash",
    if_match: int | None = None,
) -> None:
    """Add ``amount`` (CZK) to the stack at ``seat``, up to the table maximum; a player
    owing a re-buy must reach the minimum (BI-7). During the player's hand the top-up is
    paid now and goes on the stack when the hand ends (BI-6). ``paid_with``: cash at the
    table or chips from the cage (no more than the chips in players' hands).

    Raises:
        DomainError: the table's refusals; ``buy_in_exceeds_holdings`` (BI-8: more chips
            than the player holds away from the tables), ``chips_in_circulation_exceeded``.
    """
    if paid_with == "chips":
        table = load_table(table_id).state
        sitting = None if table is None else table.seat(seat)
        if sitting is not None:  # an empty seat: the table refuses the top-up itself
            cage.require_own_chips(sitting.player_id, amount)
    command = table_domain.TopUp(seat=seat, amount=amount, paid_with=paid_with)
    execute_on_table(table_id, command, if_match=if_match)


def pay_refreshment(*, table_id: int, seat: int, amount: int, if_match: int | None = None) -> None:
    """Take ``amount`` from the stack for refreshments: not during the player's hand, at
    most ``CASH_REFRESHMENT_MAX`` (RAKE-6)."""
    command = table_domain.PayRefreshment(
        seat=seat, amount=amount, limit=settings.CASH_REFRESHMENT_MAX
    )
    execute_on_table(table_id, command, if_match=if_match)


def change_limits(
    *, table_id: int, buy_in_min: int, buy_in_max: int, reason: str, if_match: int | None = None
) -> None:
    """The floor overrides this table's buy-in limits; who and why are recorded (BI-5)."""
    command = table_domain.ChangeLimits(
        buy_in_min=buy_in_min,
        buy_in_max=buy_in_max,
        reason=reason,
        changed_by=context.current().actor,
    )
    execute_on_table(table_id, command, if_match=if_match)


def transfer_player(
    *, table_id: int, seat: int, to_table_id: int, to_seat: int, if_match: int | None = None
) -> None:
    """Move the player at ``seat`` with his whole stack to ``to_seat`` at a table of the
    same game and stakes, with no buy-in (SES-2, SES-3, SES-4). Both tables change in one
    transaction. ``if_match``: the source table's version.

    Raises:
        ConcurrencyConflict: ``if_match`` is not the source table's version.
        DomainError ``transfer_game_mismatch`` (SES-3), ``hand_in_progress`` (SES-4),
        ``seat_occupied``, ``table_closed`` ...
    """
    source = load_table(table_id).state
    target = load_table(to_table_id).state
    assert source is not None and target is not None
    occupant = source.seat(seat)
    if occupant is None:
        raise DomainError("seat_empty", f"Seat {seat} is empty.", seat=seat)
    check_seating_restrictions(table_id=to_table_id, player_id=occupant.player_id)
    # Out before in: the player holds one cash seat at every moment (BI-10, enforced by
    # the seat read model); a refusal of either side rolls back both.
    execute_on_table(
        table_id, table_domain.TransferOut(seat=seat, to_table=target.config), if_match=if_match
    )
    execute_on_table(
        to_table_id,
        table_domain.TransferIn(
            seat=to_seat,
            player_id=occupant.player_id,
            stack=occupant.stack,
            from_table=source.config,
        ),
    )


def close_table(
    *, table_id: int, reason: str, moves: list[tuple[int, int, int]], if_match: int | None = None
) -> None:
    """Close a table: move each ``(seat, to_table_id, to_seat)`` player with his stack
    (SES-3), then close it; refused while anybody is left or a hand runs. ``if_match``:
    the table's version before the first move (ConcurrencyConflict otherwise)."""
    for seat, to_table_id, to_seat in moves:
        transfer_player(
            table_id=table_id, seat=seat, to_table_id=to_table_id, to_seat=to_seat,
            if_match=if_match,
        )  # fmt: skip
        if_match = None  # checked once, before the first change
    execute_on_table(table_id, table_domain.CloseTable(reason=reason), if_match=if_match)


def record_sidebet(
    *,
    table_id: int,
    player_a: int,
    player_b: int,
    amount: int,
    description: str = "",
    if_match: int | None = None,
) -> str:
    """Record a sidebet between two seated players; returns its id (RAKE-5)."""
    sidebet_id = str(uuid.uuid4())
    execute_on_table(
        table_id,
        table_domain.RecordSidebet(sidebet_id, player_a, player_b, amount, description),
        if_match=if_match,
    )
    return sidebet_id


def settle_sidebet(
    *, table_id: int, sidebet_id: str, winner: int, if_match: int | None = None
) -> None:
    """Pay a sidebet from the loser's stack to the winner's, only between hands (RAKE-5);
    a winner who had no chips owes a re-buy of the minimum before he plays (BI-7)."""
    execute_on_table(
        table_id,
        table_domain.SettleSidebet(sidebet_id=sidebet_id, winner=winner),
        if_match=if_match,
    )


def call_off_sidebet(*, table_id: int, sidebet_id: str, if_match: int | None = None) -> None:
    """The two players call off an open sidebet: it ends and no chips move (RAKE-5). A
    player's open sidebets are called off by themselves when he leaves the table.

    Raises:
        DomainError ``sidebet_not_found``.
    """
    execute_on_table(
        table_id, table_domain.CallOffSidebet(sidebet_id=sidebet_id), if_match=if_match
    )


def give_chips(
    *,
    table_id: int,
    from_seat: int,
    to_seat: int,
    amount: int,
    objected_by: list[int],
    if_match: int | None = None,
) -> str:
    """A chip loan or gift between players: done when nobody objects, otherwise blocked
    and the objection recorded (BI-9). Returns ``"given"`` or ``"blocked"``."""
    execute_on_table(
        table_id,
        table_domain.GiveChips(
            from_seat=from_seat,
            to_seat=to_seat,
            amount=amount,
            objected_by=tuple(objected_by),
            allowed=settings.CASH_CHIP_TRANSFERS_ALLOWED,
        ),
        if_match=if_match,
    )
    return "blocked" if objected_by else "given"


def partial_cash_out(
    *,
    table_id: int,
    seat: int,
    amount: int,
    reason: str,
    floor_override: bool,
    if_match: int | None = None,
) -> None:
    """Take chips off a stack without leaving: refused unless the floor overrides SES-5;
    recorded with the approver and the reason (SES-6)."""
    execute_on_table(
        table_id,
        table_domain.TakePartialCashOut(
            seat=seat,
            amount=amount,
            approved_by=context.current().actor,
            reason=reason,
            floor_override=floor_override,
        ),
        if_match=if_match,
    )


def keep_apart(*, player_id: int, other_player_id: int, reason: str) -> None:
    """Management marks two players who may not sit at the same table (BI-11).

    Raises:
        DomainError ``invalid_restriction``: the same player twice or no reason;
        NotFound ``player_not_found``: either is not a registered player.
    """
    if player_id == other_player_id or not reason.strip():
        raise DomainError(
            "invalid_restriction", "Name two different players and a reason.", rule="BI-11"
        )
    require_player(player_id)
    require_player(other_player_id)
    low, high = sorted((player_id, other_player_id))
    SeatingRestriction.objects.update_or_create(
        player_a=low,
        player_b=high,
        defaults={"reason": reason.strip(), "created_by": context.current().actor},
    )
