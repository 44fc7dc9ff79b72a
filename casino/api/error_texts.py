"""Refusal sentences in the console's language.

Domain modules are pure Python (no Django, so no gettext): a :class:`~casino.errors.DomainError`
carries an English ``detail`` and the numbers behind it in its context. Each app registers,
per refusal ``code``, the same sentence as a ``gettext_lazy`` template whose ``%(name)s``
placeholders name context keys (``<app>/error_texts.py``, imported by the app's
``AppConfig.ready()``; ``casino`` imports no app)::

    register_details({
        "top_up_above_maximum": _("A top-up may bring the stack to at most %(buy_in_max)s."),
        "amount_required": (_("A bet needs an amount."), _("A raise needs an amount.")),
    })

The one exception handler (:mod:`casino.api.errors`) asks :func:`localized_detail` for the
``detail`` of every domain refusal. It answers the translated template, formatted with the
error's context, only when all of these hold; otherwise the English detail as raised:

* a language is active (``LocaleMiddleware``: session, cookie, ``Accept-Language``);
  English too, whose template is its msgid, so that its amounts are grouped as the
  screens show them ("5,000", not "5000": found by QA);
* a template registered for the code has every placeholder in the context;
* that template's English text (its msgid), formatted with the context as the raise site
  formats it (``str`` of each value), is *exactly* the English detail raised. A code raised
  from several places with different sentences registers one template per sentence (a
  tuple), and a raise site whose sentence has no template, or whose words changed without
  its template, stays English instead of showing a stale or wrong translation.

Integers are written the language's way, grouped (``number_format(force_grouping=True)``:
"5 000" in Czech); identifiers (keys ``id`` or ``..._id``) and booleans are not numbers to
group and are kept as ``str``, like every other value. The response shape never changes:
``{code, rule, detail, **context}``, the context keeping its raw numbers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import translation
from django.utils.formats import number_format
from django.utils.functional import Promise

_TEMPLATES: dict[str, list[Promise]] = {}

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def register_details(mapping: Mapping[str, Promise | Sequence[Promise]]) -> None:
    """Register the translatable sentences of refusal codes: ``code`` to one ``gettext_lazy``
    template, or a tuple of them when the code is raised with different sentences. Apps call
    it from ``AppConfig.ready()``; registering the same template twice is harmless."""
    for code, templates in mapping.items():
        listed = _TEMPLATES.setdefault(code, [])
        for template in (templates,) if isinstance(templates, Promise) else templates:
            if all(_msgid(template) != _msgid(t) for t in listed):
                listed.append(template)


def registered_details() -> dict[str, tuple[Promise, ...]]:
    """Every registered code with its templates (for tests and tooling)."""
    return {code: tuple(templates) for code, templates in _TEMPLATES.items()}


def placeholders(template: Promise) -> set[str]:
    """The context keys a template names (``%(stack)s`` -> ``stack``)."""
    return set(_PLACEHOLDER.findall(_msgid(template)))


def localized_detail(code: str, detail: str, context: Mapping[str, Any]) -> str:
    """``detail`` in the active language, its amounts grouped, if a registered template
    says the same sentence with this context (see the module docstring), else ``detail``
    unchanged."""
    if not translation.get_language():
        return detail
    for template in _TEMPLATES.get(code, ()):
        names = placeholders(template)
        if not names <= context.keys():
            continue
        try:
            if _msgid(template) % {name: str(context[name]) for name in names} != detail:
                continue
            return str(template) % {name: _localized(name, context[name]) for name in names}
        except (KeyError, ValueError, TypeError):  # a broken catalogue entry: stay English
            return detail
    return detail


def _msgid(template: Promise) -> str:
    """The English sentence: the template with no catalogue active."""
    with translation.override(None):
        return str(template)


def _localized(name: str, value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and not _is_identifier(name):
        return number_format(value, force_grouping=True)
    return str(value)


def _is_identifier(name: str) -> bool:
    return name == "id" or name.endswith("_id")
