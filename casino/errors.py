"""Domain refusals shared by every app: one exception type, mapped to one JSON shape.

A refusal carries a stable ``code`` (snake_case, never renamed), the catalogue ``rule`` ID
it enforces (``shared/rules/CATALOGUE.md``) or ``None``, a human ``detail``, and context
numbers (amounts in CZK or chips). The API answers ``{"code", "rule", "detail", **context}``
with HTTP 422 unless ``status`` says otherwise. Nothing is appended when one is raised.
"""

from typing import Any


class DomainError(Exception):
    """A command refused by a rule. Pure Python: domain modules may raise it."""

    status = 422

    def __init__(self, code: str, detail: str, *, rule: str | None = None, **context: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.rule = rule
        self.detail = detail
        self.context = context

    def as_dict(self) -> dict[str, Any]:
        """The API error body."""
        return {"code": self.code, "rule": self.rule, "detail": self.detail, **self.context}


class BadRequest(DomainError):
    """The request itself is malformed: a header, a query parameter or a range the
    operation does not take (HTTP 400). Nothing is appended."""

    status = 400


class NotFound(DomainError):
    """The addressed table, hand, player ... does not exist (HTTP 404)."""

    status = 404


class Conflict(DomainError):
    """The request is well formed but clashes with what is already recorded: a prize
    already paid, a hand that cannot be exported (HTTP 409)."""

    status = 409
