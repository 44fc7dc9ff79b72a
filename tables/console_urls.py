"""Console pages of tables (issue #13): the dealer tablet and the floor console.

The floor console lives here because what it shows first is the tables (live seats and
stacks, hand replays, open/close, limits, transfers); its waiting-list panel is the
waitlist app's template and its devices/staff panel casino's, included by the page.
"""

from django.urls import path

from casino.consoles import console_page
from casino.models import Role

urlpatterns = [
    # No login: the tablet is paired once with its device token (localStorage).
    path("tablet/", console_page("tables/tablet.html", roles=None), name="console-tablet"),
    path("floor/", console_page("tables/floor.html", roles=[Role.FLOOR]), name="console-floor"),
]
