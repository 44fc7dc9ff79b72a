"""The staff consoles' shared shell (issue #13): login page, home, the role's navigation
and the context every console template gets.

Console pages are plain Django views that render a template; the page's data comes from
the public REST API and WebSocket feeds (``casino/static/casino/api.js`` and ``feed.js``),
never from a private path. A page's view only decides whether to show the shell:
:func:`console_page` sends an anonymous visitor to the login page and answers 403 to a
logged-in role the console is not for (the API would refuse its calls anyway).

Each app adds its pages in its own ``<app>/console_urls.py`` (found by
:mod:`casino.console_urls`, no edit here needed) and its entry in :data:`CONSOLES`.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import ensure_csrf_cookie

from casino.models import Role
from casino.permissions import role_of
from casino.rule_titles import rule_titles

ADMIN = Role.ADMIN


@dataclass(frozen=True)
class Console:
    """A console in the navigation: its path, label and the roles it is for (admin: all)."""

    path: str
    label: Any
    roles: frozenset[str]


CONSOLES: list[Console] = [
    Console("/floor/", _("Floor"), frozenset({Role.FLOOR})),
    Console("/cashier/", _("Cashier"), frozenset({Role.CASHIER})),
    Console("/director/", _("Director"), frozenset({Role.DIRECTOR})),
    Console("/reports/", _("Reports"), frozenset({Role.MANAGER})),
]
"""The staff consoles. The dealer tablet (``/tablet/``) is not here: it is paired with a
device token, not a login. TV boards need no login either."""


ROLE_TITLES = {
    Role.DEALER: _("dealer"),
    Role.CASHIER: _("cashier"),
    Role.FLOOR: _("floor"),
    Role.DIRECTOR: _("tournament director"),
    Role.MANAGER: _("manager"),
    Role.ADMIN: _("administrator"),
}
"""A role as the top bar names it, in the page's language (it showed the role's code,
"director", on a Czech console: found by QA)."""


def consoles_for(role: str | None) -> list[Console]:
    """The consoles a role may open (admin: every one)."""
    if role is None:
        return []
    return [c for c in CONSOLES if role == ADMIN or role in c.roles]


def console_context(request: HttpRequest) -> dict[str, Any]:
    """Template context of every page: the role, its navigation, the room's time zone and
    currency, and the rule titles for refusals (a context processor)."""
    user = getattr(request, "user", None)
    role = role_of(user) if user is not None and user.is_authenticated else None
    return {
        "console_role": role,
        "console_role_title": ROLE_TITLES.get(role, role) if role else None,
        "console_nav": consoles_for(role),
        "CASINO_TIME_ZONE": settings.CASINO_TIME_ZONE,
        "CASINO_CURRENCY": settings.CASINO_CURRENCY,
        "rule_titles": rule_titles(),
    }


def console_page(
    template: str,
    *,
    roles: Iterable[str] | None,
    extra: Callable[[HttpRequest], dict[str, Any]] | None = None,
) -> Callable[..., HttpResponse]:
    """A view that renders a console's shell.

    ``roles=None``: no login (dealer tablet, TV boards). Otherwise an anonymous visitor is
    sent to ``/login/?next=<path>`` and a role outside ``roles`` (admin always passes)
    gets 403. URL keyword arguments go to the template as ``url_kwargs``.
    """
    allowed = None if roles is None else frozenset(roles)

    @ensure_csrf_cookie
    def view(request: HttpRequest, **url_kwargs: Any) -> HttpResponse:
        if allowed is not None:
            if not request.user.is_authenticated:
                return redirect(f"/login/?next={request.path}")
            role = role_of(request.user)
            if role is None or (role != ADMIN and role not in allowed):
                return HttpResponseForbidden(render(request, "casino/forbidden.html").content)
        context = {"url_kwargs": url_kwargs, **(extra(request) if extra else {})}
        return render(request, template, context)

    return view


@ensure_csrf_cookie
def login_page(request: HttpRequest) -> HttpResponse:
    """The login form; the page posts to ``/api/v1/auth/login/`` (session + CSRF)."""
    target = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = "/"
    return render(request, "casino/login.html", {"next": target})


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    """The consoles the logged-in role may open; one console: straight there."""
    if not request.user.is_authenticated:
        return redirect("/login/")
    mine = consoles_for(role_of(request.user))
    if len(mine) == 1:
        return redirect(mine[0].path)
    return render(request, "casino/home.html", {"consoles": mine})
