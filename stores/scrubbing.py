"""The one point where secrets are scrubbed from free text: the model fields that save it.

Every field that keeps free text an agent or a person wrote, and that the checks do not refuse
outright (a version's reason, a refusal's path and message, a run's record and lesson answer, ...),
is a ``ScrubbedTextField``, ``ScrubbedCharField`` or ``ScrubbedJSONField``. Their ``pre_save``
(every ``save()``, the admin's included, and ``bulk_create``) and ``get_prep_value`` (also
``QuerySet.update()``, ``bulk_update`` and lookups) pass the text through the scrubber, so no
door can save a secret by going around a service.

The scrubber is the secret detector's ``redact()``, which lives in the checks, above the models:
the stores app installs it here once, in ``StoresConfig.ready()``. Until it is installed, saving
such a field raises ``ScrubberMissing``: raw text is never stored for want of a scrubber.

A text is scanned once: the scrubber remembers the last texts it scrubbed (by a keyed digest of
the text, never the text itself) and what they became, so a save, the version copy simple-history
makes of it and a lookup by the same text do not scan it again.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import models

Scrubber = Callable[[str], str]


class ScrubberMissing(ImproperlyConfigured):
    """A scrubbed field was saved before any scrubber was installed (the stores app was not ready)."""


_scrubber: Scrubber | None = None
_lock = threading.Lock()
# Keyed digest of a text (as given, and as scrubbed) -> the scrubbed text. Bounded by characters
# held, so a few long transcripts cannot grow it without end; the oldest entries go first.
_memo: dict[bytes, str] = {}
_memo_chars = 0
MEMO_MAX_CHARS = 4_000_000
# Per process: the digests are only compared within it, and a key keeps them from confirming a guess.
_DIGEST_KEY = os.urandom(32)


def install_scrubber(scrubber: Scrubber | None) -> None:
    """Install the function every scrubbed field passes its text through (None uninstalls it)."""
    global _scrubber, _memo_chars
    with _lock:
        _scrubber = scrubber
        _memo.clear()
        _memo_chars = 0


def installed_scrubber() -> Scrubber | None:
    """The scrubber installed at start-up, or None."""
    return _scrubber


def _digest(kind: bytes, text: str) -> bytes:
    data = text.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, key=_DIGEST_KEY, digest_size=20, person=kind).digest()


def _remember(key: bytes, out_key: bytes, out: str) -> None:
    global _memo_chars
    with _lock:
        while _memo and _memo_chars + len(out) > MEMO_MAX_CHARS:
            _memo_chars -= len(_memo.pop(next(iter(_memo))))
        if len(out) <= MEMO_MAX_CHARS:
            for k in {key, out_key}:
                if k not in _memo:
                    _memo[k] = out
                    _memo_chars += len(out)


def _require() -> Scrubber:
    scrubber = _scrubber
    if scrubber is None:
        raise ScrubberMissing(
            "No secret scrubber is installed, so free text cannot be saved: the stores app installs "
            "it in StoresConfig.ready() (is 'stores' in INSTALLED_APPS and Django set up?)."
        )
    return scrubber


def _scrubbed(kind: bytes, text: str, scrub: Callable[[str], str]) -> str:
    _require()
    if not text:
        return text
    key = _digest(kind, text)
    known = _memo.get(key)
    if known is not None:
        return known
    out = scrub(text)
    _remember(key, key if out == text else _digest(kind, out), out)
    return out


def scrub_text(text: str) -> str:
    """``text`` with every secret the installed scrubber finds replaced by its type."""
    return _scrubbed(b"text", text, _installed)


def _installed(text: str) -> str:
    return _require()(text)


def _each_string(value: Any) -> Any:
    if isinstance(value, str):
        return _installed(value)
    if isinstance(value, list):
        return [_each_string(item) for item in value]
    if isinstance(value, dict):
        return {_installed(str(k)): _each_string(v) for k, v in value.items()}
    return value


def _scrub_document(dumped: str) -> str:
    """A JSON document, scrubbed: each string on its own (multi-line texts keep their lines), then the
    whole document once more as indented JSON, where a key and its value share a line, so a password
    under a "password" key is caught the way it would be in a config file."""
    cleaned = _each_string(json.loads(dumped))
    text = json.dumps(cleaned, indent=1, ensure_ascii=False)
    again = _installed(text)
    if again != text:
        try:
            cleaned = json.loads(again)
        except ValueError:
            # A replacement broke the JSON (a secret spanning a quote): one string per item instead.
            if isinstance(cleaned, dict):
                cleaned = {k: _installed(json.dumps(v, ensure_ascii=False)) for k, v in cleaned.items()}
            elif isinstance(cleaned, list):
                cleaned = [_installed(json.dumps(item, ensure_ascii=False)) for item in cleaned]
            else:
                cleaned = _installed(json.dumps(cleaned, ensure_ascii=False))
    return json.dumps(cleaned, ensure_ascii=False)


def scrub_json(value: Any) -> Any:
    """A JSON value (the run record's events) with every secret in it replaced by its type."""
    if value is None:
        return None
    dumped = json.dumps(value, ensure_ascii=False)
    out = _scrubbed(b"json", dumped, _scrub_document)
    return value if out == dumped else json.loads(out)


class _Scrubbed:
    """What the three fields share: scrub on every save (keeping the instance in step) and lookup."""

    def _scrub(self, value: Any) -> Any:
        raise NotImplementedError

    def _checked(self, value: Any) -> Any:
        _require()  # fail closed, whatever the value: a missing scrubber shows on the first save
        if hasattr(value, "resolve_expression"):
            raise TypeError(
                f"{self.model.__name__}.{self.name} keeps scrubbed text: save a value, not an expression "  # type: ignore[attr-defined]
                "the scrubber cannot read."
            )
        return self._scrub(value)

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        value = super().pre_save(model_instance, add)  # type: ignore[misc]
        scrubbed = self._checked(value)
        if scrubbed is not value:
            # The saved object then holds what the table holds: an answer built from it shows no secret.
            setattr(model_instance, self.attname, scrubbed)  # type: ignore[attr-defined]
        return scrubbed

    def get_prep_value(self, value: Any) -> Any:
        value = super().get_prep_value(value)  # type: ignore[misc]
        return self._checked(value)


class _ScrubbedString(_Scrubbed):
    def _scrub(self, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        scrubbed = scrub_text(value)
        limit = self.max_length  # type: ignore[attr-defined]
        # Cut after scrubbing, never before: a cut through a secret would leave a piece the scrubber misses.
        return scrubbed[:limit] if limit is not None and len(scrubbed) > limit else scrubbed


class ScrubbedTextField(_ScrubbedString, models.TextField):
    """A TextField whose text is scrubbed of secrets when saved; ``max_length`` (if given) is applied
    after scrubbing, by cutting (the column stays unbounded)."""


class ScrubbedCharField(_ScrubbedString, models.CharField):
    """A CharField whose text is scrubbed of secrets when saved, then cut to ``max_length``."""


class ScrubbedJSONField(_Scrubbed, models.JSONField):
    """A JSONField whose strings are scrubbed of secrets when saved.

    ``text_keys`` names the members of a JSON object that hold free text (``("reason",)`` in an
    actor record); only those are scrubbed, so ids and keyed fingerprints beside them stay as they
    are. Without it the whole value is scrubbed (a run record's events).
    """

    def __init__(self, *args: Any, text_keys: tuple[str, ...] | None = None, **kwargs: Any) -> None:
        self.text_keys = tuple(text_keys) if text_keys is not None else None
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> tuple[Any, ...]:
        name, path, args, kwargs = super().deconstruct()
        if self.text_keys is not None:
            kwargs["text_keys"] = self.text_keys
        return name, path, args, kwargs

    def _scrub(self, value: Any) -> Any:
        if self.text_keys is None:
            return scrub_json(value)
        if not isinstance(value, dict):
            return value
        changed = {k: scrub_text(v) for k, v in value.items() if k in self.text_keys and isinstance(v, str)}
        if all(value[k] == v for k, v in changed.items()):
            return value
        return {**value, **changed}
