"""A base for operator commands: one JSON object with --json, progress on stderr, clear errors."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from django.core.management.base import BaseCommand, CommandError

T = TypeVar("T")


class JsonCommand(BaseCommand):
    """Subclasses implement ``run(**options) -> dict``; the result prints as JSON or as lines."""

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")
        return parser

    def run(self, **options: Any) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def handle(self, *args: Any, **options: Any) -> None:
        self.as_json = options.get("json", False)
        self.verbosity = options.get("verbosity", 1)
        result = self.run(**options)
        if self.as_json:
            self.stdout.write(json.dumps(result, default=str))
        else:
            for key, value in result.items():
                self.stdout.write(f"{key}: {json.dumps(value, default=str) if not isinstance(value, str) else value}")

    def progress(self, items: Iterable[T], total: int | None = None, label: str = "") -> Iterator[T]:
        """Yield items while drawing a progress bar on stderr (never on stdout, which carries the JSON)."""
        width = 30
        for i, item in enumerate(items, 1):
            yield item
            if total and self.verbosity > 0:
                done = int(width * i / total)
                sys.stderr.write(f"\r{label} [{'#' * done}{'.' * (width - done)}] {i}/{total}")
                sys.stderr.flush()
        if total and self.verbosity > 0:
            sys.stderr.write("\n")


def fail(message: str) -> CommandError:
    """A CommandError whose message says what was wrong and how to fix it."""
    return CommandError(message)
