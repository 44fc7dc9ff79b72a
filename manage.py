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
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as error:  # e.g. a DATABASE_URL of an unknown scheme
        if sys.argv[1:2] != ["up"]:
            raise
        sys.exit(f"up: the configuration cannot be used: {error}")  # a line, no traceback
    except KeyboardInterrupt:  # Ctrl-C while up starts: a quiet exit (found by QA)
        if sys.argv[1:2] != ["up"]:
            raise
        sys.exit(130)


if __name__ == "__main__":
    main()
