"""``{{ value|pretty_json }}``: data a run sent (its events) shown as the JSON it was, indented.

Python's repr (``pprint``) would show ``{'cmd': "curl ..."}``: not what the run sent, and not
something a person can paste into a JSON tool.
"""

from __future__ import annotations

import json
from typing import Any

from django import template

register = template.Library()


@register.filter(name="pretty_json")
def pretty_json(value: Any) -> str:
    """``value`` as indented JSON (non-ASCII kept as written); escaped by the template as any text."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)
