"""Routes of the consoles: the shared pages here, then every app's ``console_urls``.

An app with pages (``tables``, ``cashgame``, ``waitlist``, ``tournaments`` ...) keeps them
in ``<app>/console_urls.py``; this module includes each one it finds, so adding a console
needs no edit of a shared file.
"""

from importlib import import_module
from importlib.util import find_spec

from django.conf import settings
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from casino import consoles

urlpatterns = [
    path("", consoles.home, name="console-home"),
    path("login/", consoles.login_page, name="console-login"),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language (POST, CSRF)
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
]

for app in settings.INSTALLED_APPS:
    if "." in app or app == "casino":
        continue
    if find_spec(app) is not None and find_spec(f"{app}.console_urls") is not None:
        urlpatterns.append(path("", include(import_module(f"{app}.console_urls"))))
