"""The one entry point that decides every change, from every door.

The checks run in DESIGN.md's order; the first refusal stops the pipeline, so a writer
without access learns nothing about the content rules. Adding a check is one module and
one line in CHECKS.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from stores.scrubbing import scrub_text

from . import what_client_detail, what_content, what_instructions, what_secrets, when, where, who
from .request import ALLOWED, ChangeRequest, Decision

Check = Callable[[ChangeRequest], Decision | None]

CHECKS: tuple[Check, ...] = (
    who.check_who,
    where.check_path_syntax,
    where.check_folders,
    what_content.check_content,
    what_secrets.check_secrets,
    what_instructions.check_instructions,
    what_client_detail.check_client_detail,
    when.check_deleted_by_person,
    when.check_stale_base,
)


def decide(request: ChangeRequest) -> Decision:
    """Run every check in order and return the first refusal, or ALLOWED.

    A refusal's message quotes paths back to the writer: any secret a path or message carries is
    replaced by its type first, so the answer does not carry it either (the record's message field
    scrubs what it saves through the same scrubber, which remembers this text and scans it once).
    The checks compose their messages so this finds nothing in their own words; it is the net for
    what they quote.
    """
    return _run(CHECKS, request)


# Where and what: the checks a text and path must pass in a store whoever writes them.
WHERE_AND_WHAT: tuple[Check, ...] = tuple(c for c in CHECKS if c is not who.check_who and c.__module__ != when.__name__)


def decide_where_and_what(request: ChangeRequest) -> Decision:
    """The where and what checks alone, in order: would this path and text be taken in this store?

    For a text proposed now and written later by someone else (a promotion, checked when it is
    proposed and again, through ``decide``, when it lands).
    """
    return _run(WHERE_AND_WHAT, request)


def _without_path_secrets(text: str, request: ChangeRequest) -> str:
    """``text`` with each path of the request that holds a secret in its words put as its type.

    The scrubber reads text: a password a path's words give ("/sec/password-<value>.md") is
    found only when the path is read as words (``what_secrets.path_without_secret``).
    """
    for path in {request.path, request.old_path} - {None}:
        if path and path in text:
            safe = what_secrets.path_without_secret(path)
            if safe != path:
                text = text.replace(path, safe)
    return text


def _run(checks: tuple[Check, ...], request: ChangeRequest) -> Decision:
    for check in checks:
        decision = check(request)
        if decision is not None and not decision.allowed:
            message = scrub_text(_without_path_secrets(decision.message, request))
            record = scrub_text(_without_path_secrets(decision.record_message, request))
            if message != decision.message or record != decision.record_message:
                decision = replace(decision, message=message, record_message=record)
            return decision
    return ALLOWED
