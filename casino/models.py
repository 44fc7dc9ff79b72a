"""Core configuration records: players, staff accounts and registered devices.

These are reference data edited by staff, not facts of play (facts of play are events).
Who may do what is decided by :mod:`casino.permissions` from a principal's :class:`Role`:
a :class:`Device` (dealer tablet, token) or a Django ``User`` with a :class:`StaffProfile`
(console, session login).
"""

import hashlib
import hmac
import secrets
import unicodedata
import uuid
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models

from casino.errors import NotFound


class Role(models.TextChoices):
    """Staff roles (ARCHITECTURE "API conventions"); the matrix is in casino.permissions."""

    DEALER = "dealer"
    CASHIER = "cashier"
    FLOOR = "floor"
    DIRECTOR = "director", "Tournament director"
    MANAGER = "manager"
    ADMIN = "admin"


def search_key(*texts: str) -> str:
    """Text as the player search compares it: case folded, accents dropped ("Černý" and
    "cerny" match). SQLite's LIKE folds ASCII letters only, so "černý" did not find
    "Černý" in the embedded mode, and nobody typed the accents (found by QA)."""
    decomposed = unicodedata.normalize("NFKD", " ".join(texts))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


class Player(models.Model):
    """A card-room customer. ``nickname`` is what public boards show. ``search_text`` is
    kept from them on every save (:func:`search_key`) for the player search."""

    name = models.CharField(max_length=200)
    nickname = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    search_text = models.CharField(max_length=310, blank=True, default="", editable=False)

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.search_text = search_key(self.name, self.nickname)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"name", "nickname"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "search_text"}
        super().save(*args, **kwargs)


def display_name(player: Player | None) -> str:
    """What a public board shows of a player: the nickname, else initials (``"Jan Novak"``
    -> ``"J. N."``); ``"?"`` for nobody. Never the full name, a phone number or an id: the
    one rule for every board (waiting lists, tournament chip counts)."""
    if player is None:
        return "?"
    if player.nickname.strip():
        return player.nickname.strip()
    return " ".join(f"{part[0].upper()}." for part in player.name.split()) or "?"


def board_names(players: Iterable[Player]) -> dict[int, str]:
    """Each player's name on one public board, ``{player id: name}``: :func:`display_name`,
    and where two show the same (two "J. N."), the first name and last initial of each
    ("Jan N.", "Jana N."), then a number in id order ("Jan N. (1)", "Jan N. (2)") so that
    every player on the board can tell which line is his. Still never a full name or an
    id (QA found two "J. N." on one list)."""
    people = sorted(players, key=lambda p: p.pk)
    names = {p.pk: display_name(p) for p in people}
    for group in _same_name(people, names):
        for p in group:
            if not p.nickname.strip():
                names[p.pk] = short_name(p.name) or names[p.pk]
    for group in _same_name(people, names):
        for n, p in enumerate(group, start=1):
            names[p.pk] = f"{names[p.pk]} ({n})"
    return names


def _same_name(people: list[Player], names: dict[int, str]) -> list[list[Player]]:
    """The groups of two or more players who show the same name (case and spaces aside)."""
    groups: dict[str, list[Player]] = {}
    for p in people:
        groups.setdefault(" ".join(names[p.pk].casefold().split()), []).append(p)
    return [group for group in groups.values() if len(group) > 1]


def short_name(name: str) -> str:
    """How staff at a table address a player without his full name: first name and the
    initial of the last ("Jan Novak" -> "Jan N."); one word stays as it is. The one rule for
    the dealer's tablet (seated players, the seat check)."""
    words = name.split()
    if len(words) < 2:
        return words[0] if words else ""
    return f"{words[0]} {words[-1][0]}."


def _new_token() -> str:
    # Letters and digits only: a token that starts with "-" would read as an option on a
    # command line (replay_phh --token ...), and one with "_" or "-" is awkward to read out.
    return secrets.token_hex(32)


def hash_token(token: str) -> str:
    """What is stored of a device token: its SHA-256, hex (64 characters).

    Tokens are 256 random bits, so an unsalted hash is enough: the table of hashes does
    not let anyone who reads it authenticate.
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, token_hash: str) -> bool:
    """Whether ``token`` is the one ``token_hash`` was made from (constant time)."""
    return hmac.compare_digest(hash_token(token), token_hash)


class Device(models.Model):
    """A registered device (dealer tablet, console) that authenticates with a token.

    ``role`` is the staff role the device acts with; a dealer tablet is bound to ``table_id``
    and may write only to that table and its hands (casino.permissions). Revoked devices
    cannot authenticate; ``registered_by`` / ``revoked_by`` record which staff user did it.

    Only the SHA-256 of the token is stored (``token_hash``). The plain token exists once:
    on the instance that created the device (``Device.objects.create(...).token``) or
    that :meth:`issue_token` returned it from; a device read from the database has
    ``token`` ``None``. Show it to whoever registers the device, then it is gone.
    """

    Role = Role

    name = models.CharField(max_length=100, unique=True)
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.DEALER)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    table_id = models.PositiveIntegerField(null=True, blank=True)
    revoked = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    token: str | None = None
    """The plain token, on the instance that issued it only (never stored)."""
    reinstated: bool = False
    """Set by ``manage.py up`` on a demo device it found revoked and reinstated."""

    def __str__(self) -> str:
        return f"{self.name} ({self.role})"

    def save(self, *args: object, **kwargs: object) -> None:
        if not self.token_hash:
            self.token = _new_token()
            self.token_hash = hash_token(self.token)
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def issue_token(self) -> str:
        """Replace the device's token with a fresh one and return it (shown once): the
        old token stops working here at once, elsewhere within the token cache time."""
        self.token = _new_token()
        self.token_hash = hash_token(self.token)
        self.save(update_fields=["token_hash"])
        return self.token

    @property
    def is_authenticated(self) -> bool:
        return True


class StaffProfile(models.Model):
    """The staff role of a Django user who logs in to a console (session + CSRF).

    A user without a profile has no role and is denied everything, except a superuser,
    who acts as ``admin`` (the bootstrap account made with ``createsuperuser``). Dealers
    work through table-bound devices, so a profile is never ``dealer`` (the staff API
    refuses it; casino.permissions gives an unbound dealer no table anyway).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_profile"
    )
    role = models.CharField(max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} ({self.role})"


def require_player(player_id: int) -> None:
    """Refuse a command about a player who is not registered with the room.

    Raises:
        NotFound ``player_not_found``.
    """
    if not Player.objects.filter(pk=player_id).exists():
        raise NotFound("player_not_found", f"There is no player {player_id}.", player_id=player_id)


class Contact(models.Model):
    """A player's contact detail kept outside the event log (issue #16, personal data): an
    event names it by ``ref`` only, so erasing it on request (:func:`casino.contacts.erase`)
    leaves the append-only log whole. ``phone``: "" once erased (``erased_at``, UTC)."""

    ref = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player_id = models.PositiveBigIntegerField(db_index=True)
    phone = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    erased_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"contact {self.ref} of player {self.player_id}"
