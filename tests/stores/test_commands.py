"""The operator commands: one JSON object with --json, clear errors, nothing half-made, and
imports that meet the same checks as every other door."""

from __future__ import annotations

import io
import json
import re
import secrets
import string
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from stores.api.authentication import writer_for_token
from stores.models import (
    ApiToken,
    Client,
    HostedAgent,
    JiraProject,
    Memory,
    Pod,
    Refusal,
    Store,
    StoreKind,
    Toolset,
)
from tests import factories as f

pytestmark = pytest.mark.django_db


def run(*args: str) -> dict:
    """Run a command with --json and return the one JSON object it printed."""
    out = io.StringIO()
    call_command(*args, "--json", stdout=out, stderr=io.StringIO())
    text = out.getvalue().strip()
    assert "\n" not in text, f"more than one line on stdout: {text!r}"
    return json.loads(text)


def fails(*args: str) -> str:
    """Run a command that must fail; return its error message."""
    with pytest.raises(CommandError) as info:
        run(*args)
    return str(info.value)


def random_password() -> str:
    return secrets.token_urlsafe(16)


def aws_key() -> str:
    """An AWS access key id of the real shape, made up at run time (never stored in the repo)."""
    return "AK" + "IA" + "".join(secrets.choice(string.ascii_uppercase + "234567") for _ in range(16))


# add_client ----------------------------------------------------------------------------------


def test_add_client_records_every_identifying_detail():
    result = run(
        "add_client", "Globex Corporation", "--alias", "Globex", "--alias", "GLX", "--alias", "globex",
        "--repository", "globex/analytics", "--dataset", "gx_raw", "--table", "gx_raw.orders",
        "--table", "gx_raw.gx_loyalty", "--distinctive", "gx_loyalty", "--retention-days", "30",
        "--one-client-at-a-time",
    )
    assert result == {"name": "Globex Corporation"}
    client = Client.objects.get(name="Globex Corporation")
    assert client.aliases == ["Globex", "GLX"]  # the same alias twice, in another case, is kept once
    assert client.repositories == ["globex/analytics"]
    assert client.datasets == ["gx_raw"]
    assert client.tables == ["gx_raw.orders", "gx_raw.gx_loyalty"]
    assert client.distinctive_tables == ["gx_loyalty"]
    assert client.retention_days == 30
    assert client.one_client_at_a_time is True


def test_add_client_with_a_name_alone_takes_the_defaults():
    assert run("add_client", "Initech") == {"name": "Initech"}
    client = Client.objects.get(name="Initech")
    assert (client.aliases, client.retention_days, client.one_client_at_a_time) == ([], None, False)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["Acme Analytics"], "already exists"),
        (["acme analytics"], "already exists"),
        (["Acme"], "already exists"),  # another client's alias
        (["Newco", "--alias", "Acme"], "already names the client 'Acme Analytics'"),
        (["Newco", "--alias", "Newco"], "client's own name"),
        (["Newco", "--table", "orders"], "dataset.table"),
        (["Newco", "--table", "raw.orders", "--distinctive", "customers"], "--table <dataset>.customers"),
        (["Newco", "--table", "raw.orders", "--distinctive", "raw.orders"], "bare table name"),
        (["Newco", "--retention-days", "0"], "1 or more"),
        (["  "], "empty"),
        (["New\u200bco"], "control or format character"),
    ],
)
def test_add_client_refuses_bad_input_and_makes_nothing(world, args, says):
    before = Client.objects.count()
    assert says in fails("add_client", *args)
    assert Client.objects.count() == before


# add_toolset and add_project -----------------------------------------------------------------


def test_add_toolset_makes_its_read_only_store():
    result = run("add_toolset", "Looker")
    store = Store.objects.get(public_id=result["memory_store_id"])
    assert result["name"] == "Looker"
    assert store.kind == StoreKind.TOOLSET and store.toolset.name == "Looker"


def test_add_toolset_refuses_a_duplicate(world):
    assert "already exists" in fails("add_toolset", "DBT")
    assert Toolset.objects.filter(name__iexact="dbt").count() == 1


def test_add_project_makes_its_store_with_the_toolsets(world):
    f.make_toolset("Looker")
    result = run("add_project", "GLOBEX", "--client", "acme analytics", "--toolset", "dbt", "--toolset", "Looker")
    project = JiraProject.objects.get(key="GLOBEX")
    assert result == {"key": "GLOBEX", "memory_store_id": project.store.public_id}
    assert project.store.kind == StoreKind.PROJECT
    assert project.client == world.client
    assert sorted(project.toolsets.values_list("name", flat=True)) == ["Looker", "dbt"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["NEW", "--client", "Nobody Ltd"], "add_client"),
        (["NEW", "--client", "Acme Analytics", "--toolset", "tableau"], "add_toolset tableau"),
        (["new", "--client", "Acme Analytics"], "did you mean NEW"),
        (["N", "--client", "Acme Analytics"], "not a Jira project key"),
        (["ACME", "--client", "Acme Analytics"], "already registered"),
    ],
)
def test_add_project_refuses_bad_input_and_makes_nothing(world, args, says):
    projects, stores = JiraProject.objects.count(), Store.objects.count()
    assert says in fails("add_project", *args)
    assert (JiraProject.objects.count(), Store.objects.count()) == (projects, stores)


def test_add_project_needs_a_client():
    assert "--client" in fails("add_project", "NEW")


# add_agent and set_agent ---------------------------------------------------------------------


def test_add_agent_issues_a_working_token_shown_once(api):
    result = run("add_agent", "hopper", "--jira-account-id", "acc-hopper")
    agent = HostedAgent.objects.get(name="hopper")
    assert result["name"] == "hopper"
    assert result["memory_store_id"] == agent.store.public_id
    assert agent.jira_account_id == "acc-hopper"
    writer = writer_for_token(result["token"])
    assert writer is not None and writer.agent == agent
    # Only the hash is kept.
    row = ApiToken.objects.get(agent=agent)
    assert result["token"] not in (row.token_hash, row.key_id)
    listed = api.as_token(result["token"]).get("/api/v1/memory_stores").json()["data"]
    assert agent.store.public_id in [s["id"] for s in listed]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["ada"], "already exists"),
        (["Ada"], "lower-case"),
        (["Grace Hopper"], "not an agent name"),
        (["GRACE"], "lower-case"),
        (["grace", "--jira-account-id", "acc-ada"], "already belongs to the agent 'ada'"),
    ],
)
def test_add_agent_refuses_bad_input_and_makes_nothing(world, args, says):
    agents, tokens = HostedAgent.objects.count(), ApiToken.objects.count()
    assert says in fails("add_agent", *args)
    assert (HostedAgent.objects.count(), ApiToken.objects.count()) == (agents, tokens)


def test_set_agent_switches_an_agent_off_and_on(world):
    assert run("set_agent", "ada", "--inactive") == {"name": "ada", "active": False}
    world.agent.refresh_from_db()
    assert world.agent.active is False
    assert run("set_agent", "ada", "--active", "--jira-account-id", "acc-ada-2") == {"name": "ada", "active": True}
    world.agent.refresh_from_db()
    assert (world.agent.active, world.agent.jira_account_id) == (True, "acc-ada-2")


def test_set_agent_without_flags_reports_the_agent_unchanged(world):
    assert run("set_agent", "ada") == {"name": "ada", "active": True}


def test_set_agent_clears_the_jira_account_id_with_an_empty_one(world):
    run("set_agent", "ada", "--jira-account-id", "")
    world.agent.refresh_from_db()
    assert world.agent.jira_account_id == ""


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["nobody", "--inactive"], "add_agent nobody"),
        (["ada", "--jira-account-id", "acc-bob"], "already belongs to the agent 'bob'"),
        (["ada", "--active", "--inactive"], "not allowed with argument"),
    ],
)
def test_set_agent_refuses_bad_input_and_changes_nothing(world, args, says):
    assert says in fails("set_agent", *args)
    world.agent.refresh_from_db()
    assert (world.agent.active, world.agent.jira_account_id) == (True, "acc-ada")


# add_person and add_api_token ----------------------------------------------------------------


def test_add_person_admin_with_a_password_from_the_environment(monkeypatch):
    password = random_password()
    monkeypatch.setenv("NEW_ADMIN_PASSWORD", password)
    assert run("add_person", "zoe", "--email", "zoe@example.com", "--admin", "--password-env", "NEW_ADMIN_PASSWORD") == {
        "username": "zoe"
    }
    user = get_user_model().objects.get(username="zoe")
    assert user.is_superuser and user.is_staff and user.email == "zoe@example.com"
    assert user.check_password(password)


def test_add_person_without_a_password_cannot_sign_in_with_one():
    run("add_person", "yan")
    user = get_user_model().objects.get(username="yan")
    assert not user.has_usable_password()
    assert not (user.is_superuser or user.is_staff)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["carol"], "already exists"),
        (["Carol"], "already exists"),
        (["new person"], "not a valid username"),
        (["newbie", "--email", "not-an-address"], "not a valid email"),
        (["newbie", "--password-env", "SURELY_UNSET_VARIABLE_FOR_TEST"], "SURELY_UNSET_VARIABLE_FOR_TEST is not set"),
    ],
)
def test_add_person_refuses_bad_input_and_makes_nobody(world, args, says):
    before = get_user_model().objects.count()
    assert says in fails("add_person", *args)
    assert get_user_model().objects.count() == before


def test_add_api_token_issues_a_person_token_each_time(world):
    first = run("add_api_token", "carol")
    second = run("add_api_token", "carol")
    assert first["username"] == "carol" and first["token"] != second["token"]
    for result in (first, second):
        writer = writer_for_token(result["token"])
        assert writer is not None and writer.is_person and writer.user == world.contact


def test_add_api_token_refuses_unknown_and_inactive_people(world):
    assert "add_person nobody" in fails("add_api_token", "nobody")
    world.staff.is_active = False
    world.staff.save()
    before = ApiToken.objects.count()
    assert "not active" in fails("add_api_token", "erin")
    assert ApiToken.objects.count() == before


# add_pod -------------------------------------------------------------------------------------


def test_add_pod_covers_its_projects_with_its_agents(world):
    f.make_agent("hopper")
    assert run("add_pod", "pod-mixed", "--agent", "ada", "--agent", "hopper", "--project", "ACME",
               "--project", "othr") == {"name": "pod-mixed"}
    pod = Pod.objects.get(name="pod-mixed")
    assert sorted(pod.agents.values_list("name", flat=True)) == ["ada", "hopper"]
    assert sorted(pod.projects.values_list("key", flat=True)) == ["ACME", "OTHR"]


def test_add_pod_names_every_unknown_agent_and_project_and_makes_nothing(world):
    message = fails("add_pod", "pod-x", "--agent", "ada", "--agent", "ghost", "--project", "NOPE")
    assert "ghost" in message and "NOPE" in message
    assert not Pod.objects.filter(name="pod-x").exists()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["pod-acme", "--agent", "ada", "--project", "ACME"], "already exists"),
        (["pod-y", "--agent", "ada"], "--project"),
        (["pod-y", "--project", "ACME"], "--agent"),
    ],
)
def test_add_pod_refuses_bad_input(world, args, says):
    pods = Pod.objects.count()
    assert says in fails("add_pod", *args)
    assert Pod.objects.count() == pods


# Store arguments -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "kind"),
    [("practice", "practice"), ("toolset:dbt", "toolset"), ("project:ACME", "project"), ("project:acme", "project"),
     ("agent:ada", "agent")],
)
def test_export_store_takes_every_kind_of_store_argument(world, tmp_path, spec, kind):
    result = run("export_store", spec, str(tmp_path))
    assert Store.objects.get(public_id=result["memory_store_id"]).kind == kind


def test_export_store_takes_a_store_id(world, tmp_path):
    sid = world.project_store.public_id
    assert run("export_store", sid, str(tmp_path))["memory_store_id"] == sid


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("nonsense", "practice, toolset:NAME, project:KEY or agent:NAME"),
        ("project:", "does not name a store"),
        ("shared:x", "does not name a store"),
        ("project:NOPE", "No Jira project NOPE"),
        ("agent:ghost", "No hosted agent named 'ghost'"),
        ("toolset:tableau", "No toolset named 'tableau'"),
        ("memstore_doesnotexist", "No memory store"),
    ],
)
def test_store_arguments_that_name_no_store_are_clear_errors(world, tmp_path, spec, says):
    assert says in fails("export_store", spec, str(tmp_path))
    assert says in fails("import_store", spec, str(tmp_path), "--as", "root-admin")


# import_store and export_store ---------------------------------------------------------------


def write(root: Path, rel: str, data: str | bytes) -> None:
    target = root / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def live(store: Store) -> dict[str, str]:
    return dict(Memory.objects.filter(store=store, deleted_at__isnull=True).values_list("path", "content"))


def test_import_then_export_round_trips_a_folder(world, tmp_path, capsys):
    source = tmp_path / "in"
    write(source, "conventions/naming.md", "Models are named stg_<source>__<entity>.\n")
    write(source, "data/orders/refunds.md", "Refunds are separate rows with negative totals.\r\nSeen in ACME-3.\n")
    write(source, "rationale/caf\u00e9.md", "The caf\u00e9 dataset is kept apart (ACME-9).\n")
    store = world.project_store

    first = run("import_store", "project:ACME", str(source), "--as", "root-admin")
    assert first == {"memory_store_id": store.public_id, "created": 3, "updated": 0, "unchanged": 0, "refused": []}
    assert live(store) == {
        "/conventions/naming.md": "Models are named stg_<source>__<entity>.\n",
        "/data/orders/refunds.md": "Refunds are separate rows with negative totals.\r\nSeen in ACME-3.\n",
        "/rationale/caf\u00e9.md": "The caf\u00e9 dataset is kept apart (ACME-9).\n",
    }
    assert "import [" in capsys.readouterr().err  # the progress bar goes to stderr

    # Every version is the importing person's, through the import door.
    version = Memory.objects.get(store=store, path="/conventions/naming.md").history.get()
    assert version.operation == "created"
    assert version.actor["type"] == "user_actor" and version.actor["name"] == "root-admin"

    again = run("import_store", store.public_id, str(source), "--as", "root-admin")
    assert (again["created"], again["updated"], again["unchanged"]) == (0, 0, 3)
    assert Memory.history.filter(store=store).count() == 3  # unchanged files write no version

    write(source, "conventions/naming.md", "Models are named stg_<source>__<entity>, marts fct_/dim_.\n")
    changed = run("import_store", "project:ACME", str(source), "--as", "root-admin")
    assert (changed["created"], changed["updated"], changed["unchanged"]) == (0, 1, 2)
    assert live(store)["/conventions/naming.md"].endswith("marts fct_/dim_.\n")

    out = tmp_path / "out"
    exported = run("export_store", "project:ACME", str(out))
    assert exported == {"memory_store_id": store.public_id, "created": 3, "updated": 0, "unchanged": 0, "refused": []}
    for rel in ("conventions/naming.md", "data/orders/refunds.md", "rationale/caf\u00e9.md"):
        assert (out / rel).read_bytes() == (source / rel).read_bytes()
    assert not list(out.rglob(".export-*"))  # no temporary files left behind

    assert run("export_store", "project:ACME", str(out))["unchanged"] == 3
    f.make_memory(store, "/issues/open.md", "Duplicate customers in the raw data (ACME-12).\n")
    (out / "data/orders/refunds.md").write_text("edited by hand\n")
    third = run("export_store", "project:ACME", str(out))
    assert (third["created"], third["updated"], third["unchanged"]) == (1, 1, 2)
    back = run("import_store", "project:ACME", str(out), "--as", "root-admin")
    assert (back["created"], back["updated"], back["unchanged"]) == (0, 0, 4)


def test_import_never_deletes_memories_missing_from_the_folder(world, tmp_path):
    f.make_memory(world.practice, "/kept.md", "Kept.\n")
    write(tmp_path, "new.md", "New.\n")
    run("import_store", "practice", str(tmp_path), "--as", "root-admin")
    assert live(world.practice) == {"/kept.md": "Kept.\n", "/new.md": "New.\n"}


def test_import_lists_refused_files_with_their_reason_and_goes_on(world, tmp_path):
    write(tmp_path, "conventions/good.md", "A plain lesson (ACME-1).\n")
    write(tmp_path, "conventions/notes.txt", "Not Markdown.\n")
    write(tmp_path, "conventions/.hidden.md", "Hidden.\n")
    write(tmp_path, "conventions/latin1.md", "caf\u00e9\n".encode("latin-1"))
    write(tmp_path, "misc/outside.md", "Outside the fixed folders.\n")
    result = run("import_store", "project:ACME", str(tmp_path), "--as", "root-admin")
    assert result["created"] == 1
    assert sorted(result["refused"], key=lambda r: r["path"]) == [
        {"path": "/conventions/.hidden.md", "error_code": "path_invalid"},
        {"path": "/conventions/latin1.md", "error_code": "content_invalid"},
        {"path": "/conventions/notes.txt", "error_code": "path_invalid"},
        {"path": "/misc/outside.md", "error_code": "path_outside_folders"},
    ]
    assert live(world.project_store) == {"/conventions/good.md": "A plain lesson (ACME-1).\n"}
    # Each refusal is recorded like any other, at the import door.
    refusals = Refusal.objects.filter(store=world.project_store)
    assert sorted(refusals.values_list("code", flat=True)) == [
        "content_invalid", "path_invalid", "path_invalid", "path_outside_folders"
    ]
    assert set(refusals.values_list("door", flat=True)) == {"import"}


def test_import_lists_a_hidden_folder_once_and_does_not_read_it(world, tmp_path):
    write(tmp_path, "lesson.md", "A lesson.\n")
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, ".git/objects/ab/cdef", b"\x78\x01")
    result = run("import_store", "practice", str(tmp_path), "--as", "root-admin")
    assert result["created"] == 1
    assert result["refused"] == [{"path": "/.git/", "error_code": "path_invalid"}]
    assert not Refusal.objects.filter(store=world.practice).exists()


def test_import_refuses_a_secret_and_leaves_the_store_unchanged(world, tmp_path):
    store = world.toolset.store
    write(tmp_path, "warehouse.md", "The warehouse loader reads its key from the vault.\n")
    run("import_store", "toolset:dbt", str(tmp_path), "--as", "root-admin")
    before = live(store)
    versions = Memory.history.filter(store=store).count()

    key = aws_key()
    write(tmp_path, "warehouse.md", f"The warehouse loader uses aws_access_key_id = {key}\n")
    write(tmp_path, "fresh.md", f"Another copy: {key}\n")
    result = run("import_store", "toolset:dbt", str(tmp_path), "--as", "root-admin")

    assert result["refused"] == [
        {"path": "/fresh.md", "error_code": "secret_detected"},
        {"path": "/warehouse.md", "error_code": "secret_detected"},
    ]
    assert (result["created"], result["updated"]) == (0, 0)
    assert live(store) == before
    assert Memory.history.filter(store=store).count() == versions
    refusals = Refusal.objects.filter(store=store, code="secret_detected")
    assert refusals.count() == 2
    assert all(key not in r.message for r in refusals)


def test_import_into_an_agent_store_refuses_client_detail(world, tmp_path):
    write(tmp_path, "tools/git.md", "Rebasing before a push keeps the history linear.\n")
    write(tmp_path, "tools/acme.md", "The Acme Analytics warehouse is slow on Mondays.\n")
    result = run("import_store", "agent:ada", str(tmp_path), "--as", "root-admin")
    assert result["created"] == 1
    assert result["refused"] == [{"path": "/tools/acme.md", "error_code": "client_detail"}]


def test_import_by_someone_who_may_not_write_imports_nothing(world, tmp_path):
    write(tmp_path, "conventions/a.md", "A.\n")
    write(tmp_path, "conventions/b.md", "B.\n")
    message = fails("import_store", "project:ACME", str(tmp_path), "--as", "carol")
    assert "Nothing was imported" in message and "add_person NAME --admin" in message
    assert live(world.project_store) == {}
    # Issue 11: a person refused for their role is told so (importing stays with console admins).
    assert Refusal.objects.filter(store=world.project_store, code="person_not_permitted").count() == 1


def test_import_as_an_unknown_person_is_refused(world, tmp_path):
    assert "No person with the username 'nobody'" in fails("import_store", "practice", str(tmp_path), "--as", "nobody")


def test_import_from_a_missing_folder_is_refused(world, tmp_path):
    assert "is not a folder" in fails("import_store", "practice", str(tmp_path / "absent"), "--as", "root-admin")


def test_import_into_an_archived_store_is_refused(world, tmp_path):
    from django.utils import timezone

    Store.objects.filter(pk=world.practice.pk).update(archived_at=timezone.now())
    write(tmp_path, "a.md", "A.\n")
    assert "archived" in fails("import_store", "practice", str(tmp_path), "--as", "root-admin")


def test_import_as_an_inactive_person_is_refused(world, tmp_path):
    world.admin.is_active = False
    world.admin.save()
    assert "not active" in fails("import_store", "practice", str(tmp_path), "--as", "root-admin")


def test_import_reports_a_symlink_as_not_a_regular_file(world, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text("Outside the folder.\n")
    folder = tmp_path / "in"
    write(folder, "real.md", "Real.\n")
    (folder / "link.md").symlink_to(outside)
    result = run("import_store", "practice", str(folder), "--as", "root-admin")
    assert result["refused"] == [{"path": "/link.md", "error_code": "not_a_regular_file"}]
    assert live(world.practice) == {"/real.md": "Real.\n"}


def test_export_reports_a_memory_it_cannot_write_and_writes_the_rest(world, tmp_path):
    f.make_memory(world.practice, "/a.md", "A.\n")
    f.make_memory(world.practice, "/b.md", "B.\n")
    (tmp_path / "a.md").mkdir()  # a folder where the file should go
    result = run("export_store", "practice", str(tmp_path))
    assert result["refused"] == [{"path": "/a.md", "error_code": "write_failed"}]
    assert result["created"] == 1 and (tmp_path / "b.md").read_text() == "B.\n"


def test_export_into_a_file_is_refused(world, tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    assert "not a folder" in fails("export_store", "practice", str(target))


def test_export_makes_a_missing_folder_and_skips_deleted_memories(world, tmp_path):
    from stores.services.memories import memory_delete

    kept = f.make_memory(world.practice, "/kept.md", "Kept.\n")
    gone = f.make_memory(world.practice, "/gone.md", "Gone.\n")
    memory_delete(writer=f.person_writer(world.admin), store=world.practice, memory_id=gone.public_id)
    out = tmp_path / "new" / "folder"
    assert run("export_store", "practice", str(out))["created"] == 1
    assert [p.name for p in out.iterdir()] == ["kept.md"]
    assert (out / "kept.md").read_text() == kept.content


# seed_demo -----------------------------------------------------------------------------------


def seed_demo() -> tuple[dict, str]:
    """Run seed_demo --json: the one JSON object on stdout, and what it tells a person on stderr."""
    out, err = io.StringIO(), io.StringIO()
    call_command("seed_demo", "--json", stdout=out, stderr=err)
    return json.loads(out.getvalue()), err.getvalue()


def printed_password(stderr: str) -> str:
    return stderr.split("Admin login for /admin/ and /console/: admin / ", 1)[1].split()[0]


def test_seed_demo_loads_a_working_demo(api, monkeypatch):
    monkeypatch.delenv("DEMO_ADMIN_PASSWORD", raising=False)
    result, stderr = seed_demo()
    assert set(result) == {"agents", "admin"} and result["admin"] == {"username": "admin"}
    assert [a["name"] for a in result["agents"]] == ["ada", "grace"]
    admin = get_user_model().objects.get(username=result["admin"]["username"])
    assert admin.username == "admin" and admin.is_superuser and admin.is_staff
    assert admin.check_password(printed_password(stderr))

    project = JiraProject.objects.get(key="DEMO")
    assert project.toolsets.filter(name="dbt").exists()
    assert project.escalation_contacts.filter(username="demo-contact").exists()
    pod = Pod.objects.get(projects=project)
    assert sorted(pod.agents.values_list("name", flat=True)) == ["ada", "grace"]
    assert project.client.aliases and project.client.tables and project.client.distinctive_tables

    assert len(live(project.store)) >= 3
    assert len(live(Store.objects.get(kind=StoreKind.PRACTICE))) >= 1
    assert len(live(project.toolsets.get().store)) >= 1
    assert f"demo memories created {Memory.objects.count()}, updated 0, unchanged 0" in stderr

    # The demo agents' tokens work against the API and see the project store.
    for agent in result["agents"]:
        listed = api.as_token(agent["token"]).get("/api/v1/memory_stores").json()["data"]
        assert project.store.public_id in [s["id"] for s in listed]


def test_seed_demo_records_every_standing_decision_its_notes_cite(monkeypatch):
    monkeypatch.delenv("DEMO_ADMIN_PASSWORD", raising=False)
    seed_demo()
    project = JiraProject.objects.get(key="DEMO")
    cited = {
        m.group(1).strip().casefold()
        for text in Memory.objects.values_list("content", flat=True)
        for m in re.finditer(r"standing decision on ([\w ]+?)[.,;\n]", text)
    }
    assert cited, "the demo's notes cite a standing decision"
    titles = {t.casefold() for t in project.standing_decisions.values_list("title", flat=True)}
    assert cited <= titles, (cited, titles)
    seed_demo()  # run again: nothing doubled
    assert project.standing_decisions.count() == len(titles)


def test_seed_demo_runs_again_with_new_tokens_and_nothing_doubled(monkeypatch):
    monkeypatch.delenv("DEMO_ADMIN_PASSWORD", raising=False)
    first, _ = seed_demo()
    counts = (Client.objects.count(), JiraProject.objects.count(), HostedAgent.objects.count(), Pod.objects.count(),
              get_user_model().objects.count(), Memory.objects.count())
    second, stderr = seed_demo()
    assert counts == (Client.objects.count(), JiraProject.objects.count(), HostedAgent.objects.count(),
                      Pod.objects.count(), get_user_model().objects.count(), Memory.objects.count())
    assert f"demo memories created 0, updated 0, unchanged {Memory.objects.count()}" in stderr
    assert {a["token"] for a in first["agents"]}.isdisjoint(a["token"] for a in second["agents"])
    assert all(writer_for_token(a["token"]) is not None for a in second["agents"])
    admin = get_user_model().objects.get(username="admin")
    assert admin.check_password(printed_password(stderr))


def test_seed_demo_takes_the_admin_password_from_the_environment_and_does_not_print_it(monkeypatch):
    password = random_password()
    monkeypatch.setenv("DEMO_ADMIN_PASSWORD", password)
    out, err = io.StringIO(), io.StringIO()
    call_command("seed_demo", "--json", stdout=out, stderr=err)
    assert password not in out.getvalue() and password not in err.getvalue()
    result = json.loads(out.getvalue())
    assert result["admin"] == {"username": "admin"}
    assert get_user_model().objects.get(username="admin").check_password(password)


# Output --------------------------------------------------------------------------------------


def test_without_json_a_command_prints_one_line_per_field():
    out = io.StringIO()
    call_command("add_toolset", "Airflow", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "name: Airflow"
    assert lines[1].startswith("memory_store_id: memstore_")


def test_seed_demo_prints_the_escalation_contacts_login(client, monkeypatch):
    monkeypatch.delenv("DEMO_CONTACT_PASSWORD", raising=False)
    _, stderr = seed_demo()
    password = stderr.split("demo-contact / ", 1)[1].split()[0]
    signed_in = client.post("/console/login/", {"username": "demo-contact", "password": password})
    assert signed_in.status_code == 302
    assert client.get("/console/").status_code == 200
    _, again = seed_demo()
    assert get_user_model().objects.get(username="demo-contact").check_password(
        again.split("demo-contact / ", 1)[1].split()[0]
    )


def test_seed_demo_again_never_brings_back_what_a_person_deleted_changed_or_redacted(monkeypatch):
    from stores.services.memories import memory_delete, memory_update
    from stores.services.redaction import memory_redact_all_versions
    from tests import factories as f

    seed_demo()
    store = JiraProject.objects.get(key="DEMO").store
    admin = f.person_writer(get_user_model().objects.get(username="admin"))
    changed = Memory.objects.get(store=store, path="/conventions/model-naming.md")
    memory_update(writer=admin, store=store, memory_id=changed.public_id, content="Corrected by a person.\n")
    deleted = Memory.objects.get(store=store, path="/data/orders-refunds.md")
    memory_delete(writer=admin, store=store, memory_id=deleted.public_id)
    redacted = Memory.objects.get(store=store, path="/issues/duplicate-customers.md")
    memory_delete(writer=admin, store=store, memory_id=redacted.public_id)
    memory_redact_all_versions(writer=admin, store=store, memory_id=redacted.public_id)
    moved = Memory.objects.get(store=store, path="/rationale/loyalty-tiers.md")
    memory_update(writer=admin, store=store, memory_id=moved.public_id, path="/rationale/tiers.md")
    count = Memory.objects.count()

    seed_demo()
    assert Memory.objects.count() == count
    assert Memory.objects.get(pk=changed.pk).content == "Corrected by a person.\n"
    assert Memory.objects.get(pk=deleted.pk).deleted_at is not None
    assert not Memory.objects.filter(store=store, path="/data/orders-refunds.md", deleted_at__isnull=True).exists()
    assert not Memory.objects.filter(store=store, path="/issues/duplicate-customers.md").exists()
    assert not Memory.objects.filter(store=store, path="/rationale/loyalty-tiers.md").exists()
