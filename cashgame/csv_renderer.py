"""CSV output of the management reports (``?format=csv``), with ``defusedcsv`` (the standard
library's ``csv`` module that neutralises a text cell starting with ``=``, ``+``, ``-``,
``@`` ...: a tournament named ``=HYPERLINK(...)`` was a formula in Excel, found by QA;
numbers are written as they are): one header row (the report's field names), then one
row per record.

The view gives the column order (``csv_header``) and the download name (``csv_filename``)
in the renderer context. A refused download is answered in JSON like every other refusal
(:mod:`casino.api.errors`), never as a CSV row. UTF-8 without a byte-order mark: a BOM
would become part of the first column's name for every reader but Excel.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from defusedcsv import csv
from rest_framework.renderers import BaseRenderer

CSV_ROW_LIMIT = 100_000
"""Most rows one CSV download carries (a year of days times tables is far below it)."""


class ReportCSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        context = renderer_context or {}
        rows = data if isinstance(data, list) else [data]
        header = context.get("csv_header") if isinstance(data, list) else None
        if not header:
            header = list(rows[0]) if rows else []
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=header, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        response = context.get("response")
        filename = context.get("csv_filename")
        if response is not None and filename and response.status_code < 400:
            response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return out.getvalue().encode(self.charset)
