"""A text the secret scan found clean is not scanned again when it is saved (redact), and nothing else changes."""

from __future__ import annotations

from stores.console_checks.detectors import secrets


def _token() -> str:
    # Built at run time, so the repository holds no token-shaped value.
    return "gh" + "p_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def test_a_clean_text_is_remembered_and_redacted_as_it_is():
    text = "Run dbt build with --select state:modified+ before a PR (memo test)."
    assert secrets.scan(text) == []
    assert text in secrets._CLEAN
    assert secrets.redact(text) is text


def test_a_text_with_a_secret_is_never_remembered_clean():
    text = f"The CI token is {_token()} for now."
    assert secrets.scan(text)
    assert text not in secrets._CLEAN
    assert _token() not in secrets.redact(text)


def test_the_memory_of_clean_texts_is_bounded():
    for i in range(300):
        secrets.scan(f"Lesson {i}: " + "the orders model needs a unique key. " * 100)
    assert secrets._clean_chars <= secrets._CLEAN_MAX_CHARS
    assert sum(map(len, secrets._CLEAN)) == secrets._clean_chars
