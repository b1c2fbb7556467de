"""The run record's body: the full record of a run, which may be larger than Django's usual limit.

DRF reads a JSON body through ``HttpRequest.body``, which refuses anything over
``DATA_UPLOAD_MAX_MEMORY_SIZE`` (2.5 MB). This parser is not a ``JSONParser``, so DRF hands it the
request stream, and it reads at most ``RUN_RECORD_MAX_BYTES`` itself.
"""

from __future__ import annotations

import io

from django.conf import settings
from rest_framework.parsers import BaseParser

from stores.api.parsers import LenientJSONParser
from stores.console_checks.reasons import Reason
from stores.errors import InvalidRequest

CHUNK_BYTES = 1024 * 1024


class RunRecordParser(BaseParser):
    """JSON, as everywhere in the API, up to RUN_RECORD_MAX_BYTES."""

    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.RUN_RECORD_MAX_BYTES
        buffer = io.BytesIO()
        if stream is not None:
            while chunk := stream.read(min(CHUNK_BYTES, limit + 1 - buffer.tell())):
                buffer.write(chunk)
                if buffer.tell() > limit:
                    raise InvalidRequest(
                        f"The record is larger than {limit:,} bytes (RUN_RECORD_MAX_BYTES); send it in parts, "
                        "one POST each: every part is kept.",
                        code=Reason.RECORD_TOO_LARGE,
                    )
        buffer.seek(0)
        return LenientJSONParser().parse(buffer, media_type, parser_context)
