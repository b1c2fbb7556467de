"""JSON parsing that takes an empty body as {} (the SDK posts none on archive and redact)."""

import json

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class LenientJSONParser(JSONParser):
    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        if not raw or not raw.strip():
            return {}
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ParseError("The request body is not valid UTF-8.") from exc
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise ParseError(f"The request body is not valid JSON: {exc}.") from exc
        except RecursionError as exc:  # thousands of nested brackets: no field of ours is that deep
            raise ParseError("The request body nests too deeply to be read.") from exc
        if not isinstance(data, dict):
            raise ParseError("The request body must be a JSON object.")
        return data
