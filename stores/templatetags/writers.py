"""``{{ actor|writer }}``: the console's one way of naming a writer, for templates that hold an
actor object rather than a label made by the view."""

from __future__ import annotations

from typing import Any

from django import template

from stores.console.writers import WriterLabel, writer_label

register = template.Library()


@register.filter(name="writer")
def writer(actor: dict[str, Any] | None) -> WriterLabel:
    """The writer of an actor object, linked to its run and ticket where a run wrote it."""
    return writer_label(actor)
