"""Content negotiation of the API: DRF's, except that a ``?format=`` this path does not
render is a 400 naming the formats it does (DRF answers 404 "Not found.", which reads as a
wrong path; found by QA). Errors are always JSON (:mod:`casino.api.errors`)."""

from collections.abc import Iterable

from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer


class FormatNegotiation(DefaultContentNegotiation):
    """:class:`rest_framework.negotiation.DefaultContentNegotiation` with a 400 for an
    unknown format.

    Raises:
        ValidationError: 400 ``invalid_request``, ``errors: {"format": [...]}``.
    """

    def filter_renderers(
        self, renderers: Iterable[BaseRenderer], format: str
    ) -> list[BaseRenderer]:
        renderers = list(renderers)
        matching = [renderer for renderer in renderers if renderer.format == format]
        if not matching:
            known = ", ".join(sorted({str(renderer.format) for renderer in renderers}))
            raise ValidationError(
                {"format": [f"{str(format)[:20]!r} is not a format of this path ({known})."]}
            )
        return matching
