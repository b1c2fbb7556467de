"""Opaque keyset cursors (`page_…`) and the query parameters every list shares."""

from __future__ import annotations

import base64
import binascii
import json
from datetime import UTC, datetime
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.dateparse import parse_datetime

from stores.errors import InvalidRequest


def encode_cursor(key: list[Any]) -> str:
    raw = json.dumps(key, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return "page_" + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(token: str | None) -> list[Any] | None:
    if not token:
        return None
    if not token.startswith("page_"):
        raise InvalidRequest("`page` is not a cursor this API gave out; pass the `next_page` value unchanged.")
    body = token[5:]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        key = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError, UnicodeDecodeError) as exc:
        raise InvalidRequest("`page` is not a readable cursor; pass the `next_page` value unchanged.") from exc
    if not isinstance(key, list):
        raise InvalidRequest("`page` is not a readable cursor.")
    return key


def page(data: list[dict], next_key: list[Any] | None) -> dict[str, Any]:
    return {"data": data, "next_page": encode_cursor(next_key) if next_key is not None else None}


def cursor_time_pk(cursor: list) -> tuple[datetime, int]:
    """Read a (timestamp, id) keyset cursor, or answer 400."""
    try:
        at = parse_datetime(cursor[0])
        pk = int(cursor[1])
        if at is not None and at.tzinfo is not None:
            at = at.astimezone(UTC)  # a forged edge-of-calendar time fails here, not in the database
    except (IndexError, TypeError, ValueError, OverflowError) as exc:
        raise InvalidRequest("`page` is not a readable cursor; pass the `next_page` value unchanged.") from exc
    if at is None:
        raise InvalidRequest("`page` is not a readable cursor; pass the `next_page` value unchanged.")
    return at, pk


def newest_first_page(
    qs: QuerySet, page_token: str | None, *, time_field: str, limit: int, pk_field: str = "pk"
) -> tuple[list, list[Any] | None]:
    """One page of ``qs`` newest first by (time_field, pk_field), from the request's ``page`` cursor.

    Returns the rows and the key of the last one when another page follows.
    """
    cursor = decode_cursor(page_token)
    if cursor:
        at, pk = cursor_time_pk(cursor)
        qs = qs.filter(Q(**{f"{time_field}__lt": at}) | Q(**{time_field: at, f"{pk_field}__lt": pk}))
    rows = list(qs.order_by(f"-{time_field}", f"-{pk_field}")[: limit + 1])
    more = len(rows) > limit
    rows = rows[:limit]
    if not more:
        return rows, None
    last = rows[-1]
    return rows, [getattr(last, time_field).isoformat(), getattr(last, pk_field)]
