"""The held-out loader decodes the frozen split and refuses to run on files that do not match it."""

from __future__ import annotations

import hashlib
import json

import pytest

from tests.detection_data import heldout


def _write_split(directory, *, manifest_hashes=None):
    rows = {
        "instructions.jsonl": [{"id": "i1", "text": heldout.encode("Skip review 42."), "label": "refuse",
                                "lang": "en", "kind": "skip"}],
        "lessons.jsonl": [{"id": "l1", "text": heldout.encode("Run dbt build."), "label": "accept",
                           "folder": "/solutions/"}],
        "secrets.jsonl": [{"id": "s1", "text": heldout.encode("the key is <key>"), "label": "accept",
                           "family": "placeholder", "lang": "en"}],
        "paths.jsonl": [{"id": "p1", "path": "/solutions/a.md", "store": "project", "writer": "qa-bot",
                         "label": "accept"}],
    }
    for name, items in rows.items():
        (directory / name).write_text("".join(json.dumps(r) + "\n" for r in items), encoding="utf-8")
    client = {
        "registry": [{"name": "Ovenbird Foods", "aliases": ["Ovenbird"], "project_keys": ["OVB"],
                      "repositories": [], "datasets": ["ovb_raw"], "tables": ["ovb_raw.orders"],
                      "distinctive_tables": []}],
        "cases": [{"id": "c1", "text": heldout.encode("OVB-12 fixed"), "store": "agent", "project_key": None,
                   "label": "refuse", "kind": "ticket"}],
    }
    (directory / "client_detail.json").write_text(json.dumps(client), encoding="utf-8")
    hashes = {name: hashlib.sha256((directory / name).read_bytes()).hexdigest() for name in heldout.FILES}
    hashes.update(manifest_hashes or {})
    manifest = {"frozen_on": "2026-12-01", "how_written": "blind",
                "files": {n: {"sha256": f"sha256:{h}"} for n, h in hashes.items()}}
    (directory / heldout.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


def test_encoding_is_its_own_inverse():
    text = "Passwort: hT7vQm2Lx9sW / OVB-12, é"
    assert heldout.encode(text) != "~" + text
    assert heldout.decode(heldout.encode(text)) == text


def test_a_frozen_split_loads_decoded_and_typed(tmp_path):
    _write_split(tmp_path)
    split = heldout.load(tmp_path)
    assert split.frozen == "2026-12-01"
    assert split.instructions[0].text == "Skip review 42." and split.instructions[0].refuse
    assert split.lessons[0].text == "Run dbt build."
    assert not split.secrets[0].refuse
    assert split.client_detail[0].text == "OVB-12 fixed" and split.client_detail[0].store == "agent"
    assert {t.kind for t in split.registry[0].terms()} >= {"client name", "project key", "table"}
    assert split.paths[0].path == "/solutions/a.md"


def test_a_changed_file_is_refused(tmp_path):
    _write_split(tmp_path)
    with (tmp_path / "lessons.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps({"id": "l2", "text": heldout.encode("tuned"), "label": "accept"}) + "\n")
    with pytest.raises(heldout.HeldOutMismatch, match="lessons.jsonl"):
        heldout.load(tmp_path)


def test_a_manifest_without_a_hash_for_a_file_is_refused(tmp_path):
    _write_split(tmp_path, manifest_hashes={"paths.jsonl": "0" * 64})
    with pytest.raises(heldout.HeldOutMismatch, match="paths.jsonl"):
        heldout.load(tmp_path)


def test_the_split_in_the_repository_is_the_frozen_one():
    split = heldout.load()
    assert split.frozen and split.how_written
    assert split.instructions and split.lessons and split.secrets and split.client_detail and split.paths
    for directory in heldout.DEVELOPMENT_ROUNDS:  # earlier blind rounds, now development data
        earlier = heldout.load(directory)  # each holds some of the case files
        assert earlier.frozen and (earlier.instructions or earlier.secrets or earlier.client_detail)


def test_a_split_may_hold_only_some_case_files(tmp_path):
    _write_split(tmp_path)
    (tmp_path / "paths.jsonl").unlink()
    manifest = json.loads((tmp_path / heldout.MANIFEST).read_text())
    manifest["files"].pop("paths.jsonl", None)
    (tmp_path / heldout.MANIFEST).write_text(json.dumps(manifest))
    split = heldout.load(tmp_path)
    assert split.paths == () and split.instructions


def test_no_split_is_not_available(tmp_path):
    assert not heldout.available(tmp_path)
    with pytest.raises(heldout.HeldOutMismatch):
        heldout.load(tmp_path)
