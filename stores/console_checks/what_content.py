"""What the change brings must be storable text within the size limit."""

from __future__ import annotations

from .reasons import Reason
from .request import ChangeRequest, Decision, refuse

MAX_CONTENT_BYTES = 102_400


def check_content(req: ChangeRequest) -> Decision | None:
    content = req.content
    if content is None:
        return None
    try:
        size = len(content.encode("utf-8"))
    except UnicodeEncodeError:
        return refuse(Reason.CONTENT_INVALID, "The content is not valid UTF-8 text (it holds a lone surrogate).")
    if size > MAX_CONTENT_BYTES:
        return refuse(
            Reason.CONTENT_INVALID,
            f"The content is {size:,} bytes; a memory holds at most {MAX_CONTENT_BYTES:,} bytes. "
            "Keep notes short, or split this one.",
        )
    if "\x00" in content:
        return refuse(Reason.CONTENT_INVALID, "The content holds a NUL character (U+0000); remove it.")
    return None
