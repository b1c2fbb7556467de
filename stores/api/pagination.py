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


def query_limit(params, *, default: int = 20, maximum: int = 100) -> int:
    raw = params.get("limit")
    if raw is None or raw == "":
        return default
    try:
        limit = int(raw)
    except ValueError as exc:
        raise InvalidRequest(f"`limit` must be a whole number from 1 to {maximum}.") from exc
    if not 1 <= limit <= maximum:
        raise InvalidRequest(f"`limit` must be from 1 to {maximum}, not {limit}.")
    return limit


def query_view(params, default: str) -> str:
    view = params.get("view") or default
    if view not in ("basic", "full"):
        raise InvalidRequest("`view` must be `basic` or `full`.")
    return view


FULL_VIEW_PAGE_CAP = 20


def query_view_and_limit(params, default_view: str = "basic") -> tuple[str, int]:
    """The `view` and `limit` of a list; pages of full objects hold at most 20, capped silently."""
    view = query_view(params, default_view)
    limit = query_limit(params)
    return view, (min(limit, FULL_VIEW_PAGE_CAP) if view == "full" else limit)


def query_bool(params, name: str, default: bool = False) -> bool:
    raw = params.get(name)
    if raw is None or raw == "":
        return default
    if raw.lower() in ("true", "1"):
        return True
    if raw.lower() in ("false", "0"):
        return False
    raise InvalidRequest(f"`{name}` must be true or false.")


def query_datetime(params, name: str) -> datetime | None:
    raw = params.get(name)
    if raw is None or raw == "":
        return None
    problem = f"`{name}` must be an RFC 3339 timestamp such as 2026-01-01T00:00:00Z."
    try:
        # A well-formed but impossible date (month 13, hour 25) raises instead of returning None.
        value = parse_datetime(raw.replace(" ", "+"))
        if value is None:
            raise InvalidRequest(problem)
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        # In UTC now, so a date at the edge of the calendar fails here and not in the database.
        return value.astimezone(UTC)
    except (ValueError, OverflowError) as exc:
        raise InvalidRequest(problem) from exc


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
    qs: QuerySet, params, *, time_field: str, limit: int, pk_field: str = "pk"
) -> tuple[list, list[Any] | None]:
    """One page of ``qs`` newest first by (time_field, pk_field), from the request's keyset cursor.

    Returns the rows and the key of the last one when another page follows.
    """
    cursor = decode_cursor(params.get("page"))
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
