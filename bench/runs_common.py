"""Shared set-up for the run benchmarks: a pod, an agent, projects whose stores hold N memories.

Memories are written in bulk (rows with their hash, size, first line and change number, but no
version history): these benchmarks time reads, checkouts and the change feed, which never read
history, and writing 10,000 notes through every check would take minutes of set-up.
"""

from __future__ import annotations

import hashlib
import random
import time

from bench.common import ROOT  # noqa: F401  (puts the project on sys.path)

NOTE = (
    "# {title}\n\n"
    "Fact: the {table} model duplicated rows after a late-arriving update because the incremental\n"
    "strategy was append. Evidence: row counts doubled for two days in the QA comparison ({n}).\n"
    "Fix that worked: merge strategy with a unique key, and a lookback of three days. {key}-{n}\n"
)
FOLDERS = ("conventions", "data", "rationale", "solutions", "issues")


def fill_store(store, n: int, *, key: str) -> None:
    """Put ``n`` notes of about 400 bytes into the store, spread over its fixed folders."""
    from django.db import transaction
    from django.utils import timezone

    from stores.ids import new_memory_id, new_version_id
    from stores.models import Memory, Store
    from stores.services.content import first_line_of

    rng = random.Random(n)
    now = timezone.now()
    rows = []
    for i in range(n):
        content = NOTE.format(title=f"Lesson {i} on {key}", table=f"orders_{rng.randint(1, 99)}", n=i, key=key)
        rows.append(Memory(
            public_id=new_memory_id(), store=store, path=f"/{FOLDERS[i % 5]}/note-{i:05d}.md", content=content,
            content_sha256=hashlib.sha256(content.encode()).hexdigest(), size_bytes=len(content.encode()),
            first_line=first_line_of(content), head_version_id=new_version_id(), change_seq=i + 1,
            created_at=now, updated_at=now,
        ))
    with transaction.atomic():
        Memory.objects.bulk_create(rows, batch_size=1000)
        Store.objects.filter(pk=store.pk).update(change_seq=n)


def make_world(sizes: dict[str, int]):
    """A client, an agent in a pod covering one project per key, each project store holding its size.

    Returns (agent, agent token, admin token).
    """
    from django.contrib.auth import get_user_model

    from stores.models import Client, HostedAgent, JiraProject, Pod
    from stores.services.stores import store_ensure_for_agent, store_ensure_for_project
    from stores.services.tokens import token_issue_for_agent, token_issue_for_user

    client = Client.objects.create(name="Bench Client")
    agent = HostedAgent.objects.create(name="bench-agent", jira_account_id="acc-bench")
    store_ensure_for_agent(agent)
    pod = Pod.objects.create(name="bench-pod")
    pod.agents.add(agent)
    for key, n in sizes.items():
        project = JiraProject.objects.create(key=key, client=client)
        pod.projects.add(project)
        fill_store(store_ensure_for_project(project), n, key=key)
    admin = get_user_model().objects.create_user("bench-admin", is_superuser=True, is_staff=True)
    return agent, token_issue_for_agent(agent)[1], token_issue_for_user(admin)[1]


def start_run(session, url: str, token: str, ticket: str) -> dict:
    response = session.post(f"{url}/api/v1/runs", json={"ticket_key": ticket, "host": "bench"},
                            headers={"Authorization": f"Bearer {token}"}, timeout=60)
    response.raise_for_status()
    return response.json()


def wait_past_racy_window() -> None:
    """Files written in the last two seconds are read again on every pass; benchmarks wait them out."""
    from runs.sync_client.sync import RACY_NS

    time.sleep(RACY_NS / 1e9 + 0.2)
