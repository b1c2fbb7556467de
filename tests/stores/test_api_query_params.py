"""Query parameters are read by serializers: a wrong one is the API's 400 envelope naming it, and
/api/schema/ documents every one of them from the same serializers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rest_framework import serializers

from runs.api import query as run_query
from stores.api import query as store_query
from stores.api.views import VersionListQuery
from tests import factories as f
from tests.runs.conftest import started

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _wrong(api, world):
    """(url, parameter, wrong value) for every route that takes query parameters."""
    sid = world.project_store.public_id
    memory = f.make_memory(world.project_store, "/conventions/q.md", "Q.\n")
    run = started(api, world.agent_token)
    yield "/api/v1/memory_stores", "limit", "0"
    yield "/api/v1/memory_stores", "include_archived", "maybe"
    yield "/api/v1/memory_stores", "created_at[gte]", "yesterday"
    yield "/api/v1/memory_stores", "created_at[lte]", "2026-13-01T00:00:00Z"
    yield f"/api/v1/memory_stores/{sid}/memories", "view", "all"
    yield f"/api/v1/memory_stores/{sid}/memories", "depth", "-1"
    yield f"/api/v1/memory_stores/{sid}/memories", "path_prefix", "/notes"
    yield f"/api/v1/memory_stores/{sid}/memories/{memory.public_id}", "view", "none"
    yield f"/api/v1/memory_stores/{sid}/memory_versions", "operation", "renamed"
    yield f"/api/v1/memory_stores/{sid}/memory_versions", "limit", "many"
    yield f"/api/v1/memory_stores/{sid}/deleted_memories", "limit", "101"
    yield f"/api/v1/memory_stores/{sid}/set_asides", "status", "lost"
    yield f"/api/v1/memory_stores/{sid}/refusals", "limit", "-3"
    yield f"/api/v1/runs/{run['id']}/changes", "wait", "31"


def test_a_wrong_query_parameter_is_a_400_naming_it(api, world):
    for url, name, value in list(_wrong(api, world)):
        token = world.agent_token if "/runs/" in url else world.admin_token
        response = api.as_token(token).get(url, {name: value, "cursor": "chg_e30"})
        assert response.status_code == 400, (url, name, response.content)
        error = response.json()
        assert error["type"] == "error" and error["error"]["type"] == "invalid_request_error", (url, name)
        assert name in error["error"]["message"], (url, name, error["error"]["message"])


def test_a_wrong_sha_on_delete_is_a_400_naming_it(api, world):
    memory = f.make_memory(world.project_store, "/conventions/q.md", "Q.\n")
    url = f"/api/v1/memory_stores/{world.project_store.public_id}/memories/{memory.public_id}"
    for value in ("", "abc", "A" * 64):
        response = api.as_token(world.admin_token).delete(f"{url}?expected_content_sha256={value}")
        assert response.status_code == 400 and "expected_content_sha256" in response.json()["error"]["message"]


QUERIES = {
    ("get", "/api/v1/memory_stores"): store_query.StoreListQuery,
    ("get", "/api/v1/memory_stores/{store_id}/memories"): store_query.MemoryListQuery,
    ("post", "/api/v1/memory_stores/{store_id}/memories"): store_query.ViewBasicQuery,
    ("get", "/api/v1/memory_stores/{store_id}/memories/{memory_id}"): store_query.ViewFullQuery,
    ("post", "/api/v1/memory_stores/{store_id}/memories/{memory_id}"): store_query.ViewBasicQuery,
    ("delete", "/api/v1/memory_stores/{store_id}/memories/{memory_id}"): store_query.MemoryDeleteQuery,
    ("get", "/api/v1/memory_stores/{store_id}/memory_versions"): VersionListQuery,
    ("get", "/api/v1/memory_stores/{store_id}/memory_versions/{version_id}"): store_query.ViewFullQuery,
    ("get", "/api/v1/memory_stores/{store_id}/deleted_memories"): store_query.ViewPageQuery,
    ("get", "/api/v1/memory_stores/{store_id}/set_asides"): run_query.SetAsideListQuery,
    ("get", "/api/v1/memory_stores/{store_id}/refusals"): run_query.RefusalListQuery,
    ("get", "/api/v1/runs/{run_id}/changes"): run_query.RunChangesQuery,
}


def test_the_schema_documents_every_query_parameter_from_its_serializer(client):
    schema = json.loads(client.get("/api/schema/?format=json").content)
    for (method, path), query in QUERIES.items():
        documented = {p["name"]: p for p in schema["paths"][path][method].get("parameters", []) if p["in"] == "query"}
        fields: dict[str, serializers.Field] = query().fields
        assert set(documented) == set(fields), (method, path)
        for name, field in fields.items():
            assert documented[name].get("required", False) == field.required, (method, path, name)


def test_no_api_view_reads_query_parameters_by_hand():
    readers = []
    for folder in ("stores/api", "runs/api", "jira_link"):
        for path in (ROOT / folder).rglob("*.py"):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if ("query_params" in line or "request.GET" in line) and path.name != "query.py":
                    readers.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    # The one left: the NUL guard every route shares, which looks at every value, named or not.
    assert [r for r in readers if "\\x00" not in r] == []
