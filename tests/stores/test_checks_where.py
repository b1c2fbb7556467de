"""The where-check, table-driven: fixed folders, own agent folder, lookalikes, renames at both ends."""

from __future__ import annotations

import pytest

from stores.console_checks import where
from stores.console_checks.request import ChangeRequest, Writer
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def project_store(world):
    return world.project_store


CASES = [
    # label, path, expected code (None = allowed)
    ("conventions", "/conventions/naming.md", None),
    ("data", "/data/orders/quirks.md", None),
    ("rationale", "/rationale/why-incremental.md", None),
    ("solutions", "/solutions/fix.md", None),
    ("issues", "/issues/open.md", None),
    ("own agent folder", "/agents/ada/notes.md", None),
    ("another agent's folder", "/agents/bob/notes.md", "not_own_agent_folder"),
    ("agents folder itself", "/agents/ada.md", "path_outside_folders"),
    ("root file", "/notes.md", "path_outside_folders"),
    ("folder as file", "/conventions.md", "path_outside_folders"),
    ("upper case", "/Conventions/naming.md", "path_outside_folders"),
    ("cyrillic o lookalike", "/c\u043enventions/naming.md", "path_outside_folders"),
    ("fullwidth lookalike", "/\uff44ata/x.md", "path_outside_folders"),
    ("trailing space", "/data /x.md", "path_outside_folders"),
    ("plural lookalike", "/solution/x.md", "path_outside_folders"),
    ("zero-width inside", "/da\u200bta/x.md", "path_invalid"),
    ("dot-dot escape", "/data/../secret.md", "path_invalid"),
]


@pytest.mark.parametrize("label,path,code", CASES, ids=[c[0] for c in CASES])
def test_agent_paths_in_a_project_store(world, project_store, label, path, code):
    f.make_agent("bob2")
    req = ChangeRequest(writer=Writer(agent=world.agent), store=project_store, operation="create", path=path)
    decision = where.check_path_syntax(req) or where.check_folders(req)
    assert (decision.code if decision else None) == code, label


def test_people_may_use_any_existing_agents_folder(world, project_store):
    person = Writer(user=world.admin, door="console")
    ok = ChangeRequest(writer=person, store=project_store, operation="create", path="/agents/bob/x.md")
    assert where.check_folders(ok) is None
    nobody = ChangeRequest(writer=person, store=project_store, operation="create", path="/agents/nobody/x.md")
    assert where.check_folders(nobody).code == "path_outside_folders"


def test_renames_are_checked_at_both_ends(world, project_store):
    mem = f.make_memory(project_store, "/agents/bob/x.md")
    writer = Writer(agent=world.agent)
    out = ChangeRequest(writer=writer, store=project_store, operation="update", path="/conventions/x.md",
                        old_path=mem.path, current=mem)
    assert where.check_folders(out).code == "not_own_agent_folder"
    into = ChangeRequest(writer=writer, store=project_store, operation="update", path="/agents/bob/y.md",
                         old_path="/conventions/y.md")
    assert where.check_folders(into).code == "not_own_agent_folder"


def test_delete_is_never_refused_for_what_the_old_file_holds(world, project_store):
    legacy = ChangeRequest(writer=Writer(agent=world.agent), store=project_store, operation="delete",
                           old_path="/legacy-folder/x.md")
    assert where.check_path_syntax(legacy) is None
    assert where.check_folders(legacy) is None


def test_other_store_kinds_take_any_clean_path(world):
    req = ChangeRequest(writer=Writer(agent=world.agent), store=world.agent.store, operation="create",
                        path="/anything/goes.md")
    assert where.check_folders(req) is None
