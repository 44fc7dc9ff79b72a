"""The one request-body parser of the API: JSON, bounded in size and depth (issue #12 A).

* A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes (default 1 MiB here) answers 413
  ``request_too_large``: at most that many bytes (plus one) are ever read into memory.
* A document nested deeper than Python's parser can follow answers 400
  ``malformed_request`` (the ``RecursionError`` never becomes a 500), as does any other
  malformed JSON.
* So does an object naming a key twice (``{"amount": 100, "amount": 10000}``): parsers
  disagree on which one counts (Python's takes the last), so the API takes neither.
* JSON is UTF-8 (RFC 8259 §8.1): a ``charset`` other than UTF-8 (or its ASCII subset)
  answers 415 ``unsupported_media_type`` before the body is decoded. The charset was passed
  to ``codecs.decode``, which also knows bz2, zlib and base64: a 146-byte body declared
  ``charset=bz2`` inflated to 100 MB before it was refused, and ``charset=hex`` accepted a
  body that is not JSON (found by fuzzing).
* A body with a ``Content-Encoding`` (gzip ...) answers 415: none is decoded, and reading
  it as plain JSON was wrong.
* A string or key holding a lone UTF-16 surrogate (``"\\ud800"``) answers 400
  ``malformed_request``: it is no Unicode text, and a refusal that repeated it could not be
  encoded as UTF-8, so the answer was a 500 (found by fuzzing).
"""

import codecs
import json
from typing import Any

from django.conf import settings
from django.utils.http import parse_header_parameters
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError, UnsupportedMediaType
from rest_framework.parsers import JSONParser


class RequestTooLarge(APIException):
    """413: the body is larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "request_too_large"


JSON_CHARSETS = frozenset({"utf-8", "ascii"})
"""The charsets a JSON body may declare, by :func:`codecs.lookup` name."""


def body_limit() -> int:
    """Largest request body accepted, bytes."""
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2_621_440)


class BoundedJSONParser(JSONParser):
    """:class:`rest_framework.parsers.JSONParser` that reads at most :func:`body_limit`
    bytes and turns deep nesting into a parse error.

    Raises:
        RequestTooLarge (413), UnsupportedMediaType (415, a charset other than UTF-8),
        ParseError (400 ``malformed_request``).
    """

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        # the declared charset itself: Django drops one it does not know (request.encoding)
        _, params = parse_header_parameters(str(media_type or ""))
        try:
            known = codecs.lookup(params.get("charset") or settings.DEFAULT_CHARSET).name
        except LookupError:
            known = ""
        if known not in JSON_CHARSETS:
            raise UnsupportedMediaType(
                f"{str(media_type)[:100]}", detail="A JSON body is UTF-8: charset=utf-8 or none."
            )
        limit = body_limit()
        request = (parser_context or {}).get("request")
        encoding = getattr(request, "META", {}).get("HTTP_CONTENT_ENCODING") if request else None
        if encoding and encoding.strip().lower() != "identity":
            # the body would be read as if it were not encoded (found by fuzzing)
            raise UnsupportedMediaType(
                f"Content-Encoding: {encoding[:50]}",
                detail="Send the JSON body without a Content-Encoding.",
            )
        declared = getattr(request, "META", {}).get("CONTENT_LENGTH") if request else None
        try:
            if declared is not None and int(declared) > limit:
                raise RequestTooLarge()
        except ValueError:
            raise ParseError("Bad Content-Length.") from None
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise RequestTooLarge()
        try:
            text = raw.decode(known)
            data = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_object)
            if "\\" in text:
                _refuse_lone_surrogates(data)
            return data
        except RecursionError:
            raise ParseError("JSON nested too deeply.") from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"the key {key[:100]!r} is given twice")
            seen.add(key)
    return found


def _refuse_constant(name: str) -> Any:
    # NaN and Infinity are not JSON (RFC 8259); Python's parser accepts them by default.
    raise ValueError(f"{name} is not valid JSON")


def _refuse_lone_surrogates(data: Any) -> None:
    # Only an escape (``\ud800``) can put a lone surrogate into the parsed data: the body
    # itself was decoded as UTF-8, which refuses them. A valid pair decodes to one character.
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("a string holds a lone UTF-16 surrogate, which is not text") from None
