"""The refusal raised by the hand engine's ``decide``."""

from __future__ import annotations

from typing import Any

from casino.errors import DomainError


class HandRuleViolation(DomainError):
    """A hand command refused by a rule; nothing is recorded.

    Attributes:
        code: stable snake_case code (never renamed), e.g. ``"raise_below_minimum"``.
        rule: the rule ID in shared/rules/CATALOGUE.md, e.g. ``"BET-8"``.
        detail: a human sentence for the dealer.
        context: the numbers behind the refusal (``min_raise_to``, ``amount_to``, ...).
    """

    rule: str

    def __init__(self, code: str, rule: str, detail: str, **context: Any) -> None:
        super().__init__(code, detail, rule=rule, **context)

    def __repr__(self) -> str:
        return f"HandRuleViolation({self.code!r}, {self.rule!r}, {self.detail!r}, {self.context!r})"
