"""The schema at /api/schema/ is generated from the serializers and describes every body.

Every route under /api/v1 answers 200 with a JSON body that the schema writes out, and every
write (POST, PATCH) documents its request body. DELETE takes no body (its precondition is a
query parameter).
"""

from __future__ import annotations

import json

import pytest
from drf_spectacular.validation import validate_schema


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        response = APIClient().get("/api/schema/?format=json")
    assert response.status_code == 200
    document = json.loads(response.content)
    validate_schema(document)
    return document


def operations(schema):
    for path, methods in schema["paths"].items():
        if path.startswith("/api/v1/"):
            for method, op in methods.items():
                yield path, method, op


def body_schema(schema, holder) -> dict:
    body = holder["content"]["application/json"]["schema"]
    ref = body.get("$ref")
    return schema["components"]["schemas"][ref.rsplit("/", 1)[-1]] if ref else body


def test_every_route_documents_its_answer_and_every_write_its_body(schema):
    ops = list(operations(schema))
    assert len(ops) == 30  # 16 memory-store, 3 people's Recently deleted, 3 people's lists, 8 run routes
    for path, method, op in ops:
        answer = body_schema(schema, op["responses"]["200"])
        assert answer["type"] == "object" and answer["properties"], (method, path)
        assert set(answer["required"]) == set(answer["properties"]), (method, path)  # null where empty, never absent
        for code in ("400", "401", "403", "404", "429"):
            error = body_schema(schema, op["responses"][code])
            assert error["properties"]["error"], (method, path, code)
        if method in ("post", "patch"):
            assert "requestBody" in op, (method, path)
            assert body_schema(schema, op["requestBody"])["type"] == "object", (method, path)


def test_every_field_of_an_answer_is_listed_as_always_present(schema):
    components = schema["components"]["schemas"]
    for name in ("MemoryStoreOut", "MemoryOut", "MemoryVersionOut", "DeletedMemoryOut", "RunOut", "RunStartOut",
                 "RunRecordOut", "SetAsideOut", "RefusalOut", "SyncMemoryOut", "RunSnapshotOut", "RunChangesOut",
                 "RunRecordHitOut"):
        component = components[name]
        assert set(component["required"]) == set(component["properties"]), name
        if "type" in component["properties"]:
            assert len(component["properties"]["type"]["enum"]) == 1, name


def test_the_run_and_people_routes_have_their_bodies(schema):
    paths = schema["paths"]

    def request_fields(path, method="post"):
        return body_schema(schema, paths[path][method]["requestBody"])

    def answer(path, method):
        return body_schema(schema, paths[path][method]["responses"]["200"])

    start = request_fields("/api/v1/runs")
    assert start["required"] == ["ticket_key"] and set(start["properties"]) == {"ticket_key", "host"}
    assert answer("/api/v1/runs", "post")["properties"]["token"]["type"] == "string"
    assert set(request_fields("/api/v1/runs/{run_id}/end")["properties"]) == {
        "qa_failed", "needed_ruling", "worked_past_error", "attempts"}
    assert set(request_fields("/api/v1/runs/{run_id}/lesson")["required"]) == {"nothing_to_record", "why"}
    assert set(request_fields("/api/v1/runs/{run_id}/record")["properties"]) == {"transcript", "events"}
    assert {"run", "instructions", "stores", "cursor"} <= set(answer("/api/v1/runs/{run_id}/snapshot", "get")["properties"])
    changes = paths["/api/v1/runs/{run_id}/changes"]["get"]
    assert {"changes", "cursor", "more", "run_active"} <= set(body_schema(schema, changes["responses"]["200"])["properties"])
    assert [p for p in changes["parameters"] if p["name"] == "cursor"][0]["required"] is True
    store = "/api/v1/memory_stores/{store_id}"
    for route in ("set_asides", "refusals", "deleted_memories"):
        page = answer(f"{store}/{route}", "get")
        assert set(page["properties"]) == {"data", "next_page"}, route
    assert set(request_fields(f"{store}/deleted_memories/{{memory_id}}/restore")["properties"]) == {"reason"}
    redacted = answer(f"{store}/deleted_memories/{{memory_id}}/redact", "post")
    assert {"restorable_until", "redacted_at", "redacted_by"} <= set(redacted["properties"])


def test_nullable_fields_say_so(schema):
    version = schema["components"]["schemas"]["MemoryVersionOut"]["properties"]
    for name in ("path", "content", "content_sha256", "content_size_bytes", "redacted_at"):
        assert version[name].get("nullable") is True, name
    assert "nullable" not in version["id"]
