#!/usr/bin/env python
"""Django's command-line utility."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    if sys.argv[1:2] == ["up"]:
        # The embedded development server turns DEBUG on for itself (plain http on
        # localhost, the built-in SECRET_KEY); DEBUG=false in the environment still wins.
        os.environ.setdefault("DEBUG", "true")
        # human-readable logs, set before the settings load (the embedded Celery worker
        # configures logging again from them)
        os.environ.setdefault("LOG_FORMAT", "console")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
