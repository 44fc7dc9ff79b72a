"""Events of the ``waitlist-<list_id>`` streams: one stream per list (``waitlist-nlh-10-20``,
``waitlist-plo-25-50-change``), so every change to one list is serialised by the stream's
optimistic concurrency (two floors calling for the same seat: one wins, the other decides
again on the fresh list).

Times are ISO 8601 UTC strings (``"2026-11-21T18:00:00+00:00"``); positions are 1-based
places on the list; amounts are whole CZK. Every event names the list it belongs to.
"""

from dataclasses import dataclass

from casino.domain_events import DomainEvent

# Why a player left a list (PlayerLeftList.reason).
LEFT_BY_PLAYER = "player"  # he asked, in person or by phone (WL-3 "removed")
LEFT_BY_FLOOR = "floor"  # the floor took him off
LEFT_AFTER_MISSES = "missed_calls"  # the house rule's number of missed calls (WL-2)
LEFT_SEATED_IN_GAME = "seated_in_game"  # he sat down in the game by another way


@dataclass(frozen=True, slots=True)
class WaitingListOpened(DomainEvent):
    """The floor opened a list for ``game`` at ``small_blind``/``big_blind`` (CZK).

    ``list_kind``: ``"waiting"`` (a game that runs), ``"interest"`` (a game no table runs
    yet; the floor starts it when enough players wait) or ``"table_change"`` (seated
    players asking for another table of the same game).
    """

    TYPE = "waitlist.WaitingListOpened"
    list_id: str
    list_kind: str
    game: str
    small_blind: int
    big_blind: int


@dataclass(frozen=True, slots=True)
class WaitingListClosed(DomainEvent):
    """The floor closed the list (a game the room no longer spreads, or opened by mistake):
    ``player_ids`` were still on it, in order, and come off with it. The same game and
    stakes may be opened again later, as a new list on the same stream."""

    TYPE = "waitlist.WaitingListClosed"
    list_id: str
    reason: str
    player_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayerListed(DomainEvent):
    """A player was put at the bottom of the list (WL-1: he need not be in the room).

    ``channel``: ``"in_person"``, ``"phone"`` or ``"console"``. ``phone_ref``: the key of
    a number to call him back on in the contact store (``casino.contacts``; floor only,
    never on the board), so that the number can be erased on request while the log stays
    whole. ``phone``: the number itself, only in v1 events (before the contact store).
    ``from_table_id``: on a table-change list, the table he sits at now.
    """

    TYPE = "waitlist.PlayerListed"
    SCHEMA_VERSION = 2
    list_id: str
    entry_id: str
    player_id: int
    channel: str
    listed_at: str
    phone: str = ""
    from_table_id: int | None = None
    phone_ref: str = ""


@dataclass(frozen=True, slots=True)
class PlayerLeftList(DomainEvent):
    """The player's name came off the list: ``reason`` is ``"player"`` (he asked),
    ``"floor"`` or ``"missed_calls"`` (WL-2: the house rule's number of misses)."""

    TYPE = "waitlist.PlayerLeftList"
    list_id: str
    entry_id: str
    player_id: int
    position: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerMarkedAway(DomainEvent):
    """The player told staff he is leaving the room for a while (WL-3): he keeps his
    place but is not called until he is back."""

    TYPE = "waitlist.PlayerMarkedAway"
    list_id: str
    entry_id: str
    player_id: int


@dataclass(frozen=True, slots=True)
class PlayerMarkedBack(DomainEvent):
    """The away player is back in the room and can be called again (WL-3)."""

    TYPE = "waitlist.PlayerMarkedBack"
    list_id: str
    entry_id: str
    player_id: int


@dataclass(frozen=True, slots=True)
class PlayerCalled(DomainEvent):
    """The floor called the player for ``seat`` at ``table_id`` (WL-2); he must answer
    by ``deadline`` (UTC), ``WAITLIST_CALL_SECONDS`` after ``called_at``."""

    TYPE = "waitlist.PlayerCalled"
    list_id: str
    call_id: str
    entry_id: str
    player_id: int
    table_id: int
    seat: int
    called_at: str
    deadline: str


@dataclass(frozen=True, slots=True)
class CallCancelled(DomainEvent):
    """A call was withdrawn (the seat went, the player left the list ...): the player
    keeps his place. ``reason`` is free text from the floor or ``"player_left"``."""

    TYPE = "waitlist.CallCancelled"
    list_id: str
    call_id: str
    player_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class CallMissed(DomainEvent):
    """The called player was not there (WL-2): the deadline passed (``reason``
    ``"deadline"``) or the floor recorded a no-show (``"floor"``). ``misses``: his missed
    calls on this list, this one included. The move or removal follows as its own event."""

    TYPE = "waitlist.CallMissed"
    list_id: str
    call_id: str
    player_id: int
    reason: str
    misses: int


@dataclass(frozen=True, slots=True)
class CallRenewed(DomainEvent):
    """The call's timer ran ``late_seconds`` after its ``missed_deadline`` because the
    house's timers were down (a server or worker outage, CXL-10: the house's fault, not
    the player's), so the call stands with a fresh ``deadline`` (UTC,
    ``WAITLIST_CALL_SECONDS`` from the moment the timers came back) instead of counting
    as a no-show (WL-2). The floor can still record a no-show at once."""

    TYPE = "waitlist.CallRenewed"
    list_id: str
    call_id: str
    player_id: int
    missed_deadline: str
    deadline: str
    late_seconds: int


@dataclass(frozen=True, slots=True)
class PlayerMovedDown(DomainEvent):
    """The player lost his place (WL-2) and now stands at ``to_position`` (1-based; may
    equal ``from_position`` when he already was last). ``reason``: ``"no_show"``;
    ``policy``: the house rule applied (``"bottom"`` or ``"down:<n>"``)."""

    TYPE = "waitlist.PlayerMovedDown"
    list_id: str
    entry_id: str
    player_id: int
    from_position: int
    to_position: int
    reason: str
    policy: str


@dataclass(frozen=True, slots=True)
class PlayerSeatedFromList(DomainEvent):
    """The player took ``seat`` at ``table_id`` from the list and came off it. ``buy_in``
    (CZK) is the cash session's buy-in; on a table-change list ``from_table_id`` is the
    table he left with his whole stack (SES-2, SES-4) and ``buy_in`` is 0. ``call_id``:
    the call he answered, if he was called."""

    TYPE = "waitlist.PlayerSeatedFromList"
    list_id: str
    entry_id: str
    player_id: int
    table_id: int
    seat: int
    buy_in: int
    position: int
    call_id: str | None = None
    from_table_id: int | None = None


@dataclass(frozen=True, slots=True)
class InterestListPromoted(DomainEvent):
    """Enough players were interested: the floor opened ``table_id`` for the game and the
    interest list became its waiting list. ``interested``: players waiting at that time."""

    TYPE = "waitlist.InterestListPromoted"
    list_id: str
    table_id: int
    interested: int


@dataclass(frozen=True, slots=True)
class MustMoveLinked(DomainEvent):
    """``must_move_table_id`` now feeds ``main_table_id``: a main-table seat goes to the
    longest-seated must-move player; the list feeds the must-move table."""

    TYPE = "waitlist.MustMoveLinked"
    list_id: str
    main_table_id: int
    must_move_table_id: int


@dataclass(frozen=True, slots=True)
class MustMoveUnlinked(DomainEvent):
    """The game no longer has a must-move table."""

    TYPE = "waitlist.MustMoveUnlinked"
    list_id: str


@dataclass(frozen=True, slots=True)
class MustMovePlayerMoved(DomainEvent):
    """The longest-seated must-move player moved with his whole stack to the open main
    table seat (SES-2, SES-4)."""

    TYPE = "waitlist.MustMovePlayerMoved"
    list_id: str
    player_id: int
    from_table_id: int
    from_seat: int
    to_table_id: int
    to_seat: int
