"""A Latin client name written by its sound in Cyrillic or Greek letters ("Нортвинд" for "Northwind").

Found by class: the other script's words are transliterated (anyascii) and compared with the names
by a consonant skeleton and their syllables. Look-alikes that pass: sentences of Russian, Ukrainian
and Greek, a registered name whose sound is a common Russian word, short names, and the store's own
client. The registry is invented; no name comes from a labelled or blind set.
"""

from __future__ import annotations

import pytest

from stores.console_checks.detectors.client_detail import ClientDetailMatcher, ClientTerm

REGISTRY = [
    ClientTerm("Northwind", "client name", "Northwind"),
    ClientTerm("Quorvane", "client name", "Quorvane"),
    ClientTerm("Brightmoor", "client alias", "Brightmoor Estates"),
    ClientTerm("Halvorsen Marine", "client name", "Halvorsen Marine"),
    ClientTerm("Lantern", "client name", "Lantern"),
    ClientTerm("Acme", "client name", "Acme"),  # too short a skeleton to read by sound
    ClientTerm("Sakonchitsa", "client name", "Sakonchitsa"),  # sounds like "закончится" (will end)
]


@pytest.fixture(scope="module")
def matcher():
    return ClientDetailMatcher(REGISTRY)


FOUND = [
    ("Cyrillic, one word", "Exports for Нортвинд land at six.", "Northwind"),
    ("Cyrillic, qu written kv", "The Кворвейн backfill is paused.", "Quorvane"),
    ("Cyrillic, gh silent, oo written u", "Ask Брайтмур before the cut-over.", "Brightmoor"),
    ("Cyrillic, two words, kh for h", "Халворсен Марин sends files by SFTP.", "Halvorsen Marine"),
    ("Greek, th and w", "The lineage for Νόρθγουιντ is stale.", "Northwind"),
    ("Greek, nt", "Λάντερν asked for weekly files.", "Lantern"),
    ("Greek, ch for h", "Χάλβορσεν Μαρίν exports arrive late.", "Halvorsen Marine"),
]


@pytest.mark.parametrize(("what", "text", "term"), FOUND, ids=[c[0] for c in FOUND])
def test_a_name_written_by_sound_in_another_script_is_found(matcher, what, text, term):
    assert term in {f.term for f in matcher.scan(text)}, what


PASSED = [
    "Настройка конвейера данных завершена, отчёт готов.",
    "Работа закончится завтра утром.",  # a common Russian word with a registered name's sound
    "Дані з північного вітру оновлюються щодня.",
    "Η αναφορά για τον καιρό ενημερώνεται κάθε πρωί.",
    "Акме is a placeholder word in Russian too.",  # a short skeleton is never read by sound
    "Марин and Нортон are people in the team.",  # neither is a registered name's sound
]


@pytest.mark.parametrize("text", PASSED)
def test_look_alikes_in_other_scripts_pass(matcher, text):
    assert matcher.scan(text) == [], text


def test_the_own_client_written_by_sound_passes_in_its_project_store(matcher):
    text = "Exports for Нортвинд land at six."
    assert matcher.scan(text, own_client="Northwind") == []
    assert {f.term for f in matcher.scan(text, own_client="Lantern")} == {"Northwind"}
