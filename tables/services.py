"""Command handlers of the table service: load the stream, decide, append, return.

Each function is keyword-only, runs inside the caller's transaction (``run_command`` or
``transaction.atomic``) and raises :class:`casino.errors.DomainError` on refusal, in which
case nothing is appended. Amounts are integers in CZK (cash tables).
"""

from __future__ import annotations

from django.db.models import Max

from casino.errors import DomainError, NotFound
from casino.eventstore import aggregates, store
from casino.models import Player
from tables.domain import table as table_domain
from tables.domain.table import TableState
from tables.models import SeatView, TableView
from tables.table_events import TableOpened


def table_stream(table_id: int) -> str:
    return f"table-{table_id}"


def load_table(table_id: int) -> aggregates.Loaded[TableState | None]:
    """The table aggregate and its stream version.

    Raises:
        NotFound ``table_not_found``: no such table.
    """
    loaded = aggregates.load(
        table_stream(table_id),
        table_domain.evolve,
        None,
        snapshot_type=TableState,
    )
    if loaded.state is None:
        raise NotFound("table_not_found", f"There is no table {table_id}.", table_id=table_id)
    return loaded


def execute_on_table(
    table_id: int, command: table_domain.Command, *, if_match: int | None = None
) -> list[store.RecordedEvent]:
    """Decide ``command`` against the current table and append its events.

    Raises:
        DomainError: the table refuses the command.
        ConcurrencyConflict: ``if_match`` is not the current version, or a writer raced us.
    """
    loaded = load_table(table_id)
    if if_match is not None and if_match != loaded.version:
        raise store.ConcurrencyConflict(table_stream(table_id), if_match, loaded.version)
    events = table_domain.decide(loaded.state, command)
    recorded = store.append(table_stream(table_id), events, expected_version=loaded.version)
    state = loaded.state
    for event in events:
        state = table_domain.evolve(state, event)
    aggregates.save_snapshot(
        table_stream(table_id),
        loaded.version + len(events),
        state,
        previous_version=loaded.version,
    )
    return recorded


def open_table(
    *,
    name: str,
    game: str,
    small_blind: int,
    big_blind: int,
    buy_in_min: int,
    buy_in_max: int,
    ante: int = 0,
    ante_type: str = "none",
    rake_percent_bp: int = 0,
    rake_cap: int = 0,
    no_flop_no_drop: bool = False,
    min_raise_rule: str = "previous_increment",
    max_seats: int = 10,
) -> int:
    """Open a new table and return its id (the next free number).

    Raises:
        DomainError ``invalid_table_config`` (SEAT-3 and limits sanity).
    """
    table_id = (TableView.objects.aggregate(m=Max("table_id"))["m"] or 0) + 1
    config = TableOpened(
        table_id=table_id,
        name=name,
        game=game,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        ante_type=ante_type,
        buy_in_min=buy_in_min,
        buy_in_max=buy_in_max,
        rake_percent_bp=rake_percent_bp,
        rake_cap=rake_cap,
        no_flop_no_drop=no_flop_no_drop,
        min_raise_rule=min_raise_rule,
        max_seats=max_seats,
    )
    events = table_domain.decide(None, table_domain.OpenTable(config))
    # expected_version=0: two floors opening at once race for the number; the loser retries.
    store.append(table_stream(table_id), events, expected_version=0)
    return table_id


def seat_player(
    *, table_id: int, player_id: int, seat: int, buy_in: int, if_match: int | None = None
) -> None:
    """Seat ``player_id`` at ``seat`` with a buy-in of ``buy_in`` CZK (BI-1..BI-5, BI-10).

    Raises:
        NotFound ``player_not_found`` / ``table_not_found``.
        DomainError ``player_seated_elsewhere`` (BI-10) and the table's refusals.
    """
    if not Player.objects.filter(pk=player_id).exists():
        raise NotFound("player_not_found", f"There is no player {player_id}.", player_id=player_id)
    elsewhere = SeatView.objects.filter(player_id=player_id).exclude(table_id=table_id).first()
    if elsewhere is not None:
        raise DomainError(
            "player_seated_elsewhere",
            f"The player already has a seat at table {elsewhere.table_id}.",
            rule="BI-10",
            player_id=player_id,
            table_id=elsewhere.table_id,
            seat=elsewhere.seat,
        )
    execute_on_table(
        table_id,
        table_domain.SeatPlayer(seat=seat, player_id=player_id, buy_in=buy_in),
        if_match=if_match,
    )


def cash_out(*, table_id: int, seat: int, if_match: int | None = None) -> int:
    """The player at ``seat`` leaves, cashing out his whole stack (SES-5); returns it (CZK).

    Raises:
        DomainError ``seat_empty``, ``hand_in_progress`` (BI-6).
    """
    recorded = execute_on_table(table_id, table_domain.CashOut(seat=seat), if_match=if_match)
    event = recorded[0].event
    return int(getattr(event, "amount", 0))
