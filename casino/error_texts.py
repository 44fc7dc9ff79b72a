"""The core's refusals in the console's language: what a request names and is not there.

Each template says exactly what the raise site's English ``detail`` says, its placeholders
naming the error's context keys (:mod:`casino.api.error_texts` explains when it is used).
Registered by :meth:`casino.apps.CasinoConfig.ready`; each app registers its own.
"""

from django.utils.translation import gettext_lazy as _

from casino.api.error_texts import register_details

register_details(
    {
        "player_not_found": _("There is no player %(player_id)s."),
        "staff_not_found": _("There is no account %(user_id)s."),
        "device_not_found": _("There is no device %(device_id)s."),
        "unknown_query_parameter": _("This operation does not take these query parameters."),
        "repeated_query_parameter": _("Give each of these query parameters once."),
        "invalid_ids": (
            _("At most %(limit)s ids at a time."),
            _("ids is a comma-separated list of player ids."),
        ),
        "conflicting_query_parameters": _("Search by one of q, name or ids, not by several."),
        "last_admin": _("This is the last active admin account: make another admin first."),
        # --- logging in, staff accounts and devices (casino/api/staff.py) ---
        "invalid_credentials": _("Wrong username or password."),
        "no_staff_role": _("This account has no staff role."),
        "username_taken": _("That username is taken."),
        "device_name_taken": _("A device has that name."),
    }
)
