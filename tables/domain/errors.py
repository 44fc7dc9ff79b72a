"""The refusal raised by the hand engine's ``decide``."""

from __future__ import annotations

from typing import Any


class HandRuleViolation(Exception):
    """A hand command refused by a rule; nothing is recorded.

    Attributes:
        code: stable snake_case code (never renamed), e.g. ``"raise_below_minimum"``.
        rule: the rule ID in shared/rules/CATALOGUE.md, e.g. ``"BET-8"``.
        detail: a human sentence for the dealer.
        context: the numbers behind the refusal (``min_raise_to``, ``amount_to``, ...).
    """

    def __init__(self, code: str, rule: str, detail: str, **context: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.rule = rule
        self.detail = detail
        self.context: dict[str, Any] = context

    def as_dict(self) -> dict[str, Any]:
        """The API error body: ``{"code", "rule", "detail", **context}``."""
        return {"code": self.code, "rule": self.rule, "detail": self.detail, **self.context}

    def __repr__(self) -> str:
        return f"HandRuleViolation({self.code!r}, {self.rule!r}, {self.detail!r}, {self.context!r})"
