"""Who may do what: one permission matrix, role x operation, deny by default.

Keys of :data:`MATRIX` are the drf-spectacular ``operationId`` of every operation in the
OpenAPI schema (``/api/schema/``); a test checks that the two sets are equal. An operation
that is not listed (a new endpoint someone forgot, ``OPTIONS``, a path outside the
schema) is denied to everyone, admin included: whoever adds an endpoint adds its row
here (tests/casino/test_permissions.py names the missing ones). Anonymous callers get
only :data:`PUBLIC_OPERATIONS` (the CSRF token and the login form). Refusals are 401
(no or bad credentials) or 403 (a role that may not). A method a path's operations lack
(``OPTIONS``, ``PUT`` ...) answers 405, and a hand that does not exist 404 (to a dealer
too). Once allowed, a request whose query string names a parameter the operation does
not declare answers 400 ``unknown_query_parameter`` (issue #12: one check for every
list endpoint, from the same schema).

Principals (:func:`role_of`):

* a :class:`~casino.models.Device` (``Authorization: Token ...``) acts with its ``role``;
  a dealer tablet is bound to one ``table_id``, registered and revoked by the floor;
* a logged-in Django ``User`` (console, session cookie, CSRF enforced on unsafe methods)
  acts with the role of its :class:`~casino.models.StaffProfile`; a superuser without a
  profile acts as admin; any other user has no role.

Table scope: a dealer may use an operation of :data:`TABLE_SCOPED` (``/tables/{table_id}/
...`` and ``/hands/{hand_id}/...``) only on the table his device is bound to; a hand's
table is read through :mod:`casino.table_lookup` (the tables app's hand view). An operation
of :data:`PLAYER_SCOPED` (a conduct report) names a player: a dealer may name only one
seated at his table. Other roles work on the whole room.

The matrix, and why (rule IDs from shared/rules/CATALOGUE.md):

* **dealer** (own table only): record hands -- ``start_hand``, ``record_action``,
  ``deal_board``, ``show_cards``, ``muck_cards``, ``award_pots`` (SD-1: the dealer reads
  and announces the hands), ``run_it`` when the players agree (RAKE-10), a rabbit hunt
  and its fee (RAKE-8), a misdeal within the window (MIS-1..3) or a void for a foreign
  or duplicate card (MIS-11, MIS-12); seat a player and cash him out (BI-1: seating is a
  floor or dealer action, never self-service; SES-5); top-ups declared to the dealer (BI-6);
  refreshments paid with table chips (RAKE-6); side bets recorded, not ruled on
  (RAKE-5); chip gifts with the players' consent or objection (BI-9); read his table and
  its hands, the list of them too (``list_hands``: a reloaded tablet shows the last
  result). Also ``buy_in_restrictions`` (any player: the tablet checks the returning-
  player minimum before a buy-in, SES-7). No cage, no table list, no other table.
* **cashier** (tournaments): takes buy-ins, re-entries, rebuys and add-ons and refunds an
  unregistration (TREG-1, TREG-9, TREG-10, TREG-14) and reads entries, places and prizes
  to pay them.
* **cashier**: the only role that moves cash at the cage (``sell_chips``,
  ``redeem_chips``) and reads ``cage_balance`` and ``cage_journal``; registers players
  (``create_player``);
  reads a player's ``buy_in_restrictions`` (SES-7) and ``list_cash_sessions``. The
  cashier has no table operations: buy-ins at the table are the dealer's or floor's
  (BI-1, BI-2).
* **floor**: opens and closes tables (SES-3), overrides limits (BI-5, recorded), moves
  players (SES-2, SES-4), approves partial cash-outs (SES-6: floor-approved exception),
  keeps players apart (BI-11), seats players and cashes them out at any table (BI-1);
  rules a misdeal or a void at any table (PEN-16: floor decisions are final);
  registers players; runs the waiting lists (below); registers and revokes dealer
  tablets; reads every table, hand, player restriction and cash session on the floor.
  Never the cage's everyday operations; only the floor may let a player redeem more chips
  than the records show he holds (``redeem_chips_override``, with a reason in the event).
* **director** (tournament director): publishes tournaments (TREG-6), starts them (seat
  draw, TSEAT-1), runs the clock (pause, resume, breaks CLK-7), hand-for-hand (TSEAT-9),
  closes late registration (TREG-7); registers players with the cashier; reads tables and
  hands. Tournament hands are recorded by the dealer tablets like cash hands; seats,
  moves and eliminations follow from the tournament's decisions, not from a role.
* **manager**: read-only -- every ``report_*``, ``cage_balance``, ``cage_journal`` and a
  player's ``list_cash_sessions`` (his result at each table, behind the hours-by-player
  report); nothing else.
* **admin**: everything in the schema, plus staff accounts (``create_staff`` ...).

Waiting lists (issue #5, WL-1..WL-3): only the **floor** (and admin) reads and edits them
-- opens lists, lists players, calls, records no-shows, seats from a list, starts interest
games, links must-move tables. Players have no accounts: a phone entry is the floor
entering it (``channel: "phone"``). The cashier, dealer, director and manager get no list
operation: the console view carries callback phone numbers (need to know), the cashier
reads the returning-player minimum through ``buy_in_restrictions`` and the room sees the
lists on the board. The board (``waitlist_board`` and ``/ws/board/waitlists/``) is
read-only and public (:data:`PUBLIC_OPERATIONS`): nicknames or initials, never full names,
phone numbers or player ids. No waiting-list path names a table, so none is table-scoped.

Hole cards: the system never knows a hole card until a player shows it (``show_cards``);
the hand payload carries only shown cards, and the table scope keeps a dealer out of
other tables' hands. Players' names are reference data, given only by ``create_player`` and
the player search and file (:data:`NAME_OPERATIONS`) to the cashier/floor; tables, hands and
reports carry player ids.

Resolving the operation per request (:func:`operation_id_for`): on first use a process
generates the schema once (drf-spectacular's ``SchemaGenerator``, about 0.1 s once the
views are imported) and keeps ``(path template, method) -> operationId``. A request is
mapped from its URL route (``request.resolver_match.route``, e.g.
``api/v1/tables/<id:table_id>/``, rewritten to ``/api/v1/tables/{table_id}/`` and cached),
so each request costs two dict lookups. ``HEAD`` counts as ``GET``. The only database
reads are the principal's staff profile (session users, one primary-key query) and, for a
dealer on ``/hands/{hand_id}/...``, the hand's table (one primary-key query, then cached:
a hand never changes table). Call :func:`operation_registry` at start-up to move the
one-off build out of the first request.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import MethodNotAllowed
from rest_framework.permissions import BasePermission

from casino import table_lookup
from casino.models import Device, Role

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView

DEALER, CASHIER, FLOOR = Role.DEALER, Role.CASHIER, Role.FLOOR
DIRECTOR, MANAGER, ADMIN = Role.DIRECTOR, Role.MANAGER, Role.ADMIN


def _roles(*roles: Role) -> frozenset[Role]:
    """The roles given, plus admin (who may do everything in the schema)."""
    return frozenset((*roles, ADMIN))


EVERY_ROLE: frozenset[Role] = frozenset(Role)
READ_TABLES = _roles(DEALER, FLOOR, DIRECTOR)  # a dealer: own table only
REPORTS = _roles(MANAGER)
SHOW_POKER_OPERATIONS = (
    "show_deal_report", "show_flop", "show_declare", "show_check", "show_fold",
    "show_challenge", "show_push_over_line", "show_buy", "show_turn_card", "show_card_count",
    "show_start_clock", "show_expire_clock",
)  # fmt: skip
"""Show poker hand operations (``/show-hands/{hand_id}/...``, :mod:`tables.show_api`)."""
DEALER_AT_TABLE = _roles(DEALER)  # recording play at the table (own table)

MATRIX: dict[str, frozenset[Role]] = {
    # --- console session and identity ------------------------------------------------------
    "auth_csrf": EVERY_ROLE,  # also anonymous: PUBLIC_OPERATIONS
    "auth_login": EVERY_ROLE,  # also anonymous: PUBLIC_OPERATIONS
    "auth_logout": EVERY_ROLE,
    "auth_me": EVERY_ROLE,
    # --- staff accounts and devices ------------------------------------------------------
    "list_staff": _roles(),
    "create_staff": _roles(),
    "update_staff": _roles(),
    "list_devices": _roles(FLOOR),
    "register_device": _roles(FLOOR),  # a dealer tablet, bound to one table
    "revoke_device": _roles(FLOOR),
    # --- players -------------------------------------------------------------------------
    "create_player": _roles(CASHIER, FLOOR),
    "search_players": _roles(CASHIER, FLOOR, DIRECTOR),  # consoles (issue #13)
    "list_players": _roles(CASHIER, FLOOR, DIRECTOR),  # search by name or nickname
    "player_detail": _roles(CASHIER, FLOOR),  # seat, sessions, restrictions
    "buy_in_restrictions": _roles(DEALER, CASHIER, FLOOR),  # SES-7
    "list_cash_sessions": _roles(CASHIER, FLOOR, MANAGER),
    "keep_players_apart": _roles(FLOOR),  # BI-11
    "erase_player_contacts": _roles(FLOOR),  # personal data: a player's erasure request
    # --- tables (floor) ------------------------------------------------------------------
    "list_tables": _roles(FLOOR, DIRECTOR),
    "get_table": READ_TABLES,
    # names of the players at one table: the dealer calls them by name (the feeds carry ids)
    "list_table_players": READ_TABLES,
    "open_table": _roles(FLOOR),
    "close_table": _roles(FLOOR),  # SES-3
    "change_table_limits": _roles(FLOOR),  # BI-5
    "transfer_player": _roles(FLOOR),  # SES-2, SES-4
    "partial_cash_out": _roles(FLOOR),  # SES-6
    # --- seats (dealer at his table, floor anywhere) ---------------------------------------
    "seat_player": _roles(DEALER, FLOOR),  # BI-1
    "check_seat": _roles(DEALER, FLOOR),  # who a player number is, and his buy-in (SES-7)
    "cash_out": _roles(DEALER, FLOOR),  # BI-1, SES-5
    "change_seat": _roles(DEALER, FLOOR),  # SEAT-17: within the same game
    "record_shuffle": _roles(DEALER, FLOOR),  # SD-25/26: the dealer's riffle or cut
    "sit_out": _roles(DEALER, FLOOR),  # SEAT-16: the player tells the dealer or the floor
    "sit_in": _roles(DEALER, FLOOR),  # SEAT-15, SEAT-16
    "next_hand": READ_TABLES,  # the tablet's preview of blinds and owed posts
    "top_up": DEALER_AT_TABLE,  # BI-6
    "pay_refreshment": DEALER_AT_TABLE,  # RAKE-6
    "give_chips": DEALER_AT_TABLE,  # BI-9
    "record_sidebet": DEALER_AT_TABLE,  # RAKE-5
    "settle_sidebet": DEALER_AT_TABLE,  # RAKE-5
    "call_off_sidebet": DEALER_AT_TABLE,  # RAKE-5
    # --- hands (dealer at his table) --------------------------------------------------------
    "start_hand": DEALER_AT_TABLE,
    "export_hand_phh": READ_TABLES,
    "export_hand_pokerstars": READ_TABLES,
    "record_action": DEALER_AT_TABLE,
    "deal_board": DEALER_AT_TABLE,
    "show_cards": DEALER_AT_TABLE,  # SD-1, SD-3
    "muck_cards": DEALER_AT_TABLE,
    "award_pots": DEALER_AT_TABLE,  # SD-1
    "run_it": DEALER_AT_TABLE,  # RAKE-10: the players agree, the dealer records it
    "record_rabbit_hunt": DEALER_AT_TABLE,  # RAKE-8: the fee is the dealer's
    "declare_misdeal": _roles(DEALER, FLOOR),  # MIS-1..3; PEN-16: the floor may rule
    "void_hand": _roles(DEALER, FLOOR),  # MIS-11, MIS-12; PEN-16
    "get_hand": READ_TABLES,
    # --- the floor's rulings during a hand (issue #15) -----------------------------------
    "read_chips": DEALER_AT_TABLE,  # BET-10..27: the dealer reports the chips pushed
    "call_clock": _roles(DEALER, FLOOR),  # BET-28: the floor runs the clock
    "record_exposure": _roles(DEALER, FLOOR),  # BET-30..32
    "record_burn": DEALER_AT_TABLE,  # BET-2
    "record_out_of_turn": _roles(DEALER, FLOOR),  # BET-25/26
    "record_absence": _roles(DEALER, FLOOR),  # SEAT-12/13: away at the last card
    "request_show": _roles(DEALER, FLOOR),  # SD-17..19
    "rule_irregularity": _roles(DEALER, FLOOR),  # MIS-4..21; PEN-16
    "correct_hand_result": _roles(FLOOR),  # SD-24..26: a dispute is the floor's ruling
    "record_rabbit_consent": DEALER_AT_TABLE,  # RAKE-8
    "record_chop_exception": _roles(FLOOR),  # RAKE-9: a floor exception
    # --- Show poker tables (SHOW-1..27): the dealer records, the floor/TD rules ---------
    "start_show_hand": DEALER_AT_TABLE,  # SHOW-2
    "get_show_hand": READ_TABLES,
    "record_show_penalty": _roles(FLOOR, DIRECTOR),  # SHOW-20..22: the TD's penalty
    **{op: _roles(DEALER, FLOOR, DIRECTOR) for op in SHOW_POKER_OPERATIONS},  # SHOW-27
    # a dispute: the floor replays a hand step by step with who recorded each step (#13)
    # the dealer his own table's: a reloaded tablet shows the last hand's result (QA)
    "list_hands": _roles(DEALER, FLOOR, DIRECTOR),
    "export_hands": _roles(FLOOR, DIRECTOR),  # a range of a table's hands, one download
    "hand_log": _roles(FLOOR),
    # --- cage: only the cashier moves cash --------------------------------------------------
    "sell_chips": _roles(CASHIER),
    "redeem_chips": _roles(CASHIER),
    # above the chips the records show the player holding: a floor decision, audited
    "redeem_chips_override": _roles(FLOOR),
    "cage_balance": _roles(CASHIER, MANAGER),
    "cage_journal": _roles(CASHIER, MANAGER),  # every desk's movements, with who recorded them
    "pay_tournament_prize": _roles(CASHIER),  # cash leaves the cage (issue #13)
    "list_prize_payments": _roles(CASHIER, MANAGER),
    # --- management reports: read-only ----------------------------------------------------
    "report_rake": REPORTS,
    "report_drop": REPORTS,
    "report_drop_by_table": REPORTS,
    "report_hours_by_player": REPORTS,
    "report_hours_by_game": REPORTS,
    "report_hands_per_hour": REPORTS,
    # --- tournaments (issue #6) ---------------------------------------------------------------
    "list_tournaments": _roles(DIRECTOR, FLOOR, CASHIER, MANAGER),
    "get_tournament": _roles(DIRECTOR, FLOOR, CASHIER, MANAGER),
    "list_tournament_entries": _roles(DIRECTOR, FLOOR, CASHIER, MANAGER),  # payouts: cashier
    "tournament_clock": EVERY_ROLE,  # also anonymous: PUBLIC_OPERATIONS (the clock board)
    "tournament_chip_counts": EVERY_ROLE,  # also anonymous: PUBLIC_OPERATIONS (chip board)
    "create_tournament": _roles(DIRECTOR),  # TREG-6
    "register_tournament_player": _roles(CASHIER, DIRECTOR),  # TREG-1: buy-in paid
    "unregister_tournament_player": _roles(CASHIER, DIRECTOR),  # TREG-10: refund
    "re_enter_tournament": _roles(CASHIER, DIRECTOR),  # TREG-9
    "tournament_rebuy": _roles(CASHIER, DIRECTOR),  # TREG-14
    "tournament_add_on": _roles(CASHIER, DIRECTOR),  # CLK-5
    "start_tournament": _roles(DIRECTOR),  # TSEAT-1
    "pause_clock": _roles(DIRECTOR),
    "resume_clock": _roles(DIRECTOR),
    "adjust_clock": _roles(DIRECTOR),
    "amend_tournament_levels": _roles(DIRECTOR),  # TREG-6
    "start_break": _roles(DIRECTOR),  # CLK-7
    "end_break": _roles(DIRECTOR),
    "set_hand_for_hand": _roles(DIRECTOR),  # TSEAT-9
    "close_late_registration": _roles(DIRECTOR),  # TREG-7
    "report_tournaments": REPORTS,
    # deals (issue #14): the player asks and confirms at the table, staff record it
    "get_tournament_deal": _roles(DIRECTOR, FLOOR, CASHIER, MANAGER),
    "request_deal": _roles(DIRECTOR, FLOOR),  # DEAL-4
    "propose_deal": _roles(DIRECTOR),  # DEAL-5..9: the director proposes
    "confirm_deal": _roles(DIRECTOR, FLOOR),  # DEAL-5: each confirmation recorded
    "cancel_deal": _roles(DIRECTOR, FLOOR),
    "pay_tournament_winnings": _roles(CASHIER),  # only the cashier moves cash
    "list_tournament_winnings": _roles(DIRECTOR, CASHIER, MANAGER),  # owed, held or not
    "hold_tournament_winnings": _roles(DIRECTOR),  # ELIM-9
    "release_tournament_winnings": _roles(DIRECTOR),
    "get_player_t_money": _roles(CASHIER, DIRECTOR, MANAGER),  # TREG-11
    "get_tournament_bracket": _roles(DEALER, DIRECTOR, FLOOR, CASHIER, MANAGER),  # HU-1
    "list_tournament_penalties": _roles(DEALER, DIRECTOR, FLOOR, MANAGER),  # killed hands
    "issue_tournament_penalty": _roles(DIRECTOR, FLOOR),  # PEN-1, PEN-16: the floor rules
    "flag_tournament_conduct": _roles(DEALER, DIRECTOR, FLOOR),  # the dealer may report
    "correct_tournament_seat": _roles(FLOOR, DIRECTOR),  # TSEAT-2
    "schedule_tournament_start": _roles(DIRECTOR),  # TREG-5
    "roll_back_tournament_hands": _roles(DIRECTOR),  # CXL-1
    # CXL-2: management chooses the method, the director records it (managers only read)
    "cancel_tournament": _roles(DIRECTOR),
    "get_tournament_settlement": _roles(DIRECTOR, CASHIER, MANAGER),
    # --- waiting lists (issue #5) ------------------------------------------------------------
    "list_waitlists": _roles(FLOOR),  # the floor console (phone numbers: floor only)
    "get_waitlist": _roles(FLOOR),
    "open_waitlist": _roles(FLOOR),
    "close_waitlist": _roles(FLOOR),
    "join_waitlist": _roles(FLOOR),  # WL-1: in person, by phone or console -- via the floor
    "leave_waitlist": _roles(FLOOR),  # WL-3
    "mark_waitlist_away": _roles(FLOOR),  # WL-3
    "call_player": _roles(FLOOR),  # WL-2
    "cancel_call": _roles(FLOOR),
    "record_no_show": _roles(FLOOR),  # WL-2
    "seat_from_waitlist": _roles(FLOOR),  # WL-2, BI-1
    "start_interest_game": _roles(FLOOR),
    "link_must_move": _roles(FLOOR),
    "move_must_move_player": _roles(FLOOR),  # SES-2, SES-4
    "waitlist_board": EVERY_ROLE,  # also anonymous: PUBLIC_OPERATIONS (the TV board)
}

NAME_OPERATIONS: frozenset[str] = frozenset({"create_player", "list_players", "player_detail"})
"""The only operations whose answers carry players' full names (cashier, floor, director)."""

PUBLIC_OPERATIONS: frozenset[str] = frozenset(
    # waitlist_board (issue #5), tournament_clock (issue #6) and tournament_chip_counts:
    # read-only boards
    {"auth_csrf", "auth_login", "waitlist_board", "tournament_clock", "tournament_chip_counts"}
)
"""Operations anonymous callers may use (login still checks the CSRF token; the waiting-list
and chip-count boards show nicknames or initials only, ``casino.models.display_name``)."""

TABLE_SCOPED: frozenset[str] = frozenset(
    {
        # /tables/{table_id}/...
        "get_table",
        "list_table_players",
        "close_table",
        "change_table_limits",
        "seat_player",
        "check_seat",
        "cash_out",
        "partial_cash_out",
        "top_up",
        "sit_out",
        "sit_in",
        "record_shuffle",
        "change_seat",
        "next_hand",
        "pay_refreshment",
        "transfer_player",
        "give_chips",
        "record_sidebet",
        "settle_sidebet",
        "call_off_sidebet",
        "start_hand",
        "list_hands",
        "export_hands",
        # /hands/{hand_id}/...
        "get_hand",
        "hand_log",
        "export_hand_phh",
        "export_hand_pokerstars",
        "record_action",
        "deal_board",
        "show_cards",
        "muck_cards",
        "award_pots",
        "run_it",
        "record_rabbit_hunt",
        "declare_misdeal",
        "void_hand",
        "read_chips",
        "call_clock",
        "record_exposure",
        "record_burn",
        "record_out_of_turn",
        "record_absence",
        "request_show",
        "rule_irregularity",
        "correct_hand_result",
        "record_rabbit_consent",
        "record_chop_exception",
        "start_show_hand",
        "get_show_hand",
        *SHOW_POKER_OPERATIONS,
    }
)
"""Operations on one table (path ``{table_id}``) or one hand (``{hand_id}``): a dealer
may use them only at the table his device is bound to."""

PLAYER_SCOPED: frozenset[str] = frozenset({"flag_tournament_conduct"})
"""Operations about one player (body ``player_id``) that a dealer may use only for a player
seated at his own table: a tablet reported conduct at any table of the room (found by QA)."""


def _player_at_own_table(principal: Any, request: Request) -> bool:
    """Whether the body's ``player_id`` holds a seat at the dealer device's table. A body
    without a whole-number ``player_id`` passes here: the request serializer refuses it."""
    data = request.data if isinstance(request.data, dict) else {}
    player_id = data.get("player_id")
    if not isinstance(player_id, int) or isinstance(player_id, bool):
        return True
    bound = principal.table_id if isinstance(principal, Device) else None
    return bound is not None and table_lookup.lookup().table_of_player(player_id) == bound


# --- principals ----------------------------------------------------------------------------


def role_of(principal: Any) -> Role | None:
    """The role a request's principal acts with, or ``None`` (no role: denied everything).

    May read the database (a user's staff profile): call it from sync code.
    """
    if isinstance(principal, Device):
        if principal.revoked:
            return None
        return _role(principal.role)
    if principal is None or not getattr(principal, "is_authenticated", False):
        return None
    if not getattr(principal, "is_active", False):
        return None
    try:
        profile = principal.staff_profile
    except (ObjectDoesNotExist, AttributeError):
        profile = None
    if profile is not None:
        return _role(profile.role)
    return ADMIN if getattr(principal, "is_superuser", False) else None


def _role(value: str) -> Role | None:
    try:
        return Role(value)
    except ValueError:
        return None


def allowed(principal: Any, operation_id: str, *, table_id: int | None = None) -> bool:
    """Whether ``principal`` (a Device, a User, or ``None``) may use ``operation_id``.

    For a dealer, an operation of :data:`TABLE_SCOPED` also needs ``table_id`` (the table
    of the path, or of the hand: :func:`table_of_hand`) equal to the device's table.
    WebSocket consumers call this with the operation whose data they stream (e.g.
    ``get_table`` for a table feed, ``list_tables`` for the floor's feed); it may read the
    database (:func:`role_of`), so call it from sync code (``database_sync_to_async``).
    """
    if operation_id in PUBLIC_OPERATIONS:
        return True
    return _allowed(principal, role_of(principal), operation_id, table_id)


def _allowed(principal: Any, role: Role | None, operation_id: str, table_id: int | None) -> bool:
    roles = MATRIX.get(operation_id)
    if roles is None or role is None or role not in roles:
        return False
    if role == DEALER and operation_id in TABLE_SCOPED:
        bound = principal.table_id if isinstance(principal, Device) else None
        return bound is not None and table_id is not None and int(table_id) == bound
    return True


def table_of_hand(hand_id: Any) -> int | None:
    """The table a hand is played at (the tables app's read model, through
    :mod:`casino.table_lookup`), or ``None``."""
    key = str(hand_id)
    table_id = table_lookup.hand_tables.get(key)
    if table_id is not None:
        return table_id
    found = table_lookup.lookup().table_of_hand(key)
    if found is None:
        return None
    table_lookup.hand_tables.remember(key, int(found))
    return int(found)


def table_of_request(kwargs: dict[str, Any]) -> int | None:
    """The table a request is about, from its URL ``table_id`` or ``hand_id``."""
    if "table_id" in kwargs:
        return int(kwargs["table_id"])
    if "hand_id" in kwargs:
        return table_of_hand(kwargs["hand_id"])
    return None


# --- operation ids -------------------------------------------------------------------------

_registry: dict[tuple[str, str], str] | None = None
_query_parameters: dict[tuple[str, str], frozenset[str]] = {}
_without_body: set[tuple[str, str]] = set()
_list_query_parameters: dict[tuple[str, str], frozenset[str]] = {}
_paths: set[str] = set()
_registry_lock = threading.Lock()
_route_paths: dict[str, str] = {}
_PARAMETER = re.compile(r"<(?:[^<>:]+:)?([^<>:]+)>")


def operation_registry() -> dict[tuple[str, str], str]:
    """``(path template, METHOD) -> operationId`` of every operation in the schema.

    Built once per process from drf-spectacular's generator, the same source as
    ``/api/schema/`` (call it at start-up to warm it; otherwise the first request does).
    """
    global _registry
    if _registry is None:
        with _registry_lock:
            if _registry is None:
                from drf_spectacular.generators import SchemaGenerator

                schema = SchemaGenerator().get_schema(request=None, public=True)
                for path, item in schema["paths"].items():
                    _paths.add(path)
                    for method, operation in item.items():
                        if "requestBody" not in operation:
                            _without_body.add((path, method.upper()))
                        _query_parameters[(path, method.upper())] = frozenset(
                            parameter["name"]
                            for parameter in operation.get("parameters", [])
                            if parameter.get("in") == "query"
                        )
                        _list_query_parameters[(path, method.upper())] = frozenset(
                            parameter["name"]
                            for parameter in operation.get("parameters", [])
                            if parameter.get("in") == "query"
                            and parameter.get("schema", {}).get("type") == "array"
                        )
                _registry = {
                    (path, method.upper()): operation["operationId"]
                    for path, item in schema["paths"].items()
                    for method, operation in item.items()
                }
    return _registry


def _operation_key(request: Request) -> tuple[str, str]:
    operation_registry()
    route = getattr(getattr(request, "resolver_match", None), "route", None) or ""
    method = "GET" if request.method == "HEAD" else str(request.method)
    return path_of_route(route), method


def query_parameters(request: Request) -> frozenset[str]:
    """The query parameters the schema declares for the request's operation."""
    return _query_parameters.get(_operation_key(request), frozenset())


UNKNOWN_FIELD_MESSAGE = _("This operation does not take this field.")
"""The field error of a field an operation does not take, in ``errors: {field: [...]}``
(here for a body an operation takes none of; the request serializers use it too)."""


def check_request_shape(request: Request) -> None:
    """Refuse what the operation does not take, as its schema says: a query parameter it
    does not declare, a single-valued one given twice (``?game=NLH&game=PLO`` would
    otherwise apply one of them silently), or a body when it has none (``cash_out`` with
    an ``amount``). Bodies of operations that take one are checked by their serializer
    (:class:`casino.api.serializers.RequestSerializer`).

    Raises:
        DomainError ``unknown_query_parameter``, ``repeated_query_parameter`` or
        ``unknown_field`` (400).
    """
    from casino.errors import BadRequest

    unknown = sorted(set(request.query_params) - query_parameters(request))
    if unknown:
        raise BadRequest(
            "unknown_query_parameter",
            "This operation does not take these query parameters.",
            parameters=[name[:100] for name in unknown[:20]],
        )
    lists = _list_query_parameters.get(_operation_key(request), frozenset())
    repeated = sorted(
        name
        for name, values in request.query_params.lists()
        if len(values) > 1 and name not in lists
    )
    if repeated:
        raise BadRequest(
            "repeated_query_parameter",
            "Give each of these query parameters once.",
            parameters=[name[:100] for name in repeated[:20]],
        )
    if request.method in ("POST", "PUT", "PATCH") and _operation_key(request) in _without_body:
        body = request.data
        if body or not isinstance(body, Mapping):  # `[]` and `null` are bodies too
            names = [str(name)[:100] for name in body][:20] if isinstance(body, Mapping) else []
            raise BadRequest(
                "unknown_field",
                "This operation takes no body.",
                # the field errors in the shape every body's refusal has (and, as before,
                # the names alone)
                errors={name: [str(UNKNOWN_FIELD_MESSAGE)] for name in names},
                fields=names,
            )


def _path_exists(request: Request) -> bool:
    operation_registry()
    route = getattr(getattr(request, "resolver_match", None), "route", None)
    return bool(route) and path_of_route(str(route)) in _paths


def path_of_route(route: str) -> str:
    """A Django route (``api/v1/hands/<uuid_id:hand_id>/``) as the schema writes its path
    (``/api/v1/hands/{hand_id}/``)."""
    path = _route_paths.get(route)
    if path is None:
        path = "/" + _PARAMETER.sub(r"{\1}", route).lstrip("/")
        _route_paths[route] = path
    return path


def operation_id_for(request: Request) -> str | None:
    """The operationId of the operation a request calls, or ``None`` (not in the schema)."""
    match = getattr(request, "resolver_match", None)
    route = getattr(match, "route", None)
    if not route:
        return None
    method = "GET" if request.method == "HEAD" else str(request.method)
    return operation_registry().get((path_of_route(route), method))


class OperationPermission(BasePermission):
    """DRF permission: the request's operation must be allowed to its principal's role
    (:data:`MATRIX`), and a dealer must stay at his own table (:data:`TABLE_SCOPED`).

    Unauthenticated callers are answered 401 (DRF), authenticated ones 403.
    """

    message = "Your role may not use this operation."

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method == "OPTIONS" and _path_exists(request):
            return True  # the methods a path takes (``Allow``) are no secret: see the schema
        operation_id = operation_id_for(request)
        if operation_id is None:
            if _path_exists(request):
                raise MethodNotAllowed(str(request.method))
            self.message = "This operation is not in the API."
            return False
        if operation_id in PUBLIC_OPERATIONS:
            check_request_shape(request)
            return True
        principal = request.user
        role = role_of(principal)
        table_id = None
        if role == DEALER and operation_id in TABLE_SCOPED:
            kwargs = getattr(view, "kwargs", None) or {}
            table_id = table_of_request(kwargs)
            if table_id is None and "hand_id" in kwargs:
                from casino.errors import NotFound

                hand_id = str(kwargs["hand_id"])
                raise NotFound("hand_not_found", f"There is no hand {hand_id}.", hand_id=hand_id)
        if not _allowed(principal, role, operation_id, table_id):
            if role is not None and role in MATRIX.get(operation_id, ()):  # the op, not here
                self.message = "A dealer tablet may act only at its own table."
            return False
        if (
            role == DEALER
            and operation_id in PLAYER_SCOPED
            and not _player_at_own_table(principal, request)
        ):
            self.message = "A dealer tablet may report only a player seated at its table."
            return False
        check_request_shape(request)
        return True
