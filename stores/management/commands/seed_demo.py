"""seed_demo -> {agents: [{name, token}], admin: {username}}

Demo data for a first run: a client, a Jira project with the dbt toolset and the standing
decision its notes cite, two agents in a pod covering it, an admin, an escalation contact, and a few lessons in the project, practice and
toolset stores (written through the memory services, so they pass the checks). Running it
again keeps what exists, issues new agent tokens and sets the admin's and the contact's
passwords anew. A demo memory is written only the first time: one that a person has since
changed, deleted or redacted stays as the person left it.
"""

from __future__ import annotations

import os
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import transaction

from stores.console_checks.request import Writer
from stores.console_checks.when import PATH_FINGERPRINT_KEY, path_fingerprint
from stores.errors import ConsoleError
from stores.management.base import JsonCommand
from stores.models import (
    Client,
    HostedAgent,
    JiraProject,
    Memory,
    Pod,
    StandingDecision,
    Store,
    StoreKind,
    Toolset,
)
from stores.services import registry
from stores.services.escalation_contacts import escalation_contact_add
from stores.services.memories import memory_create
from stores.services.tokens import token_issue_for_agent

ADMIN_USERNAME = "admin"
ADMIN_PASSWORD_ENV = "DEMO_ADMIN_PASSWORD"  # pragma: allowlist secret (the variable's name)
CONTACT_USERNAME = "demo-contact"
CONTACT_PASSWORD_ENV = "DEMO_CONTACT_PASSWORD"  # pragma: allowlist secret (the variable's name)
CLIENT = {
    "name": "Northwind Outfitters",
    "aliases": ["Northwind", "NWO"],
    "repositories": ["northwind-outfitters/analytics-dbt"],
    "datasets": ["nw_raw", "nw_analytics"],
    "tables": ["nw_raw.shopify_orders", "nw_raw.shopify_customers", "nw_analytics.fct_orders",
               "nw_analytics.dim_loyalty_members"],
    "distinctive_tables": ["dim_loyalty_members"],
    "retention_days": 60,
}
PROJECT_KEY = "DEMO"
TOOLSET = "dbt"
AGENTS = [("ada", "demo-acc-ada"), ("grace", "demo-acc-grace")]
POD = "pod-demo"

PROJECT_MEMORIES = {
    "/conventions/model-naming.md": (
        "Staging models in this project are named stg_shopify__<entity>; marts use fct_ and dim_ prefixes.\n\n"
        "Evidence: every model under models/staging/shopify/ follows the pattern (DEMO-12).\n"
    ),
    "/data/orders-refunds.md": (
        "nw_raw.shopify_orders records a refund as a separate row with a negative total_price, "
        "not as a status on the original order.\n\n"
        "Evidence: the DEMO-31 reconciliation matched the Shopify admin report only after netting those rows.\n"
    ),
    "/rationale/loyalty-tiers.md": (
        "Loyalty tiers are computed in dim_loyalty_members rather than in the BI tool, so every dashboard "
        "shares one definition. The ruling behind it is the project's standing decision on loyalty tiers.\n\n"
        "Ticket: DEMO-7.\n"
    ),
    "/solutions/incremental-late-orders.md": (
        "Late-arriving Shopify orders were missed by the incremental fct_orders model; a three-day lookback "
        "on updated_at fixed it.\n\nEvidence: row counts matched the source after the change (DEMO-44).\n"
    ),
    "/issues/duplicate-customers.md": (
        "Customers who check out as guests and register later appear twice in nw_raw.shopify_customers; "
        "no reliable merge key has been found yet.\n\nSeen in DEMO-52.\n"
    ),
}
# The rulings the demo's notes cite: a note that names "the project's standing decision on X" finds
# it in the project (the admin's Standing decisions, and every run's instructions).
STANDING_DECISIONS = {
    "Loyalty tiers": (
        "Loyalty tiers are defined once, in dbt (dim_loyalty_members), and never recomputed in the BI tool: "
        "dashboards read the tier from the model. A change to the tier thresholds is a change to that model, "
        "agreed with the escalation contact first."
    ),
}
PRACTICE_MEMORIES = {
    "/dbt/project-layout.md": (
        "Rittman Analytics dbt projects keep staging, intermediate and marts folders, with one staging "
        "model per source table.\n"
    ),
    "/reviews/pull-requests.md": (
        "Pull requests at Rittman Analytics carry the Jira ticket key in their title, which links the "
        "change to the ticket in Jira.\n"
    ),
}
TOOLSET_MEMORIES = {
    "/incremental-models.md": (
        "A dbt incremental model with the merge strategy on BigQuery scans the whole target table unless "
        "incremental_predicates limit the merge.\n\n"
        "Evidence: bytes billed fell by about 90% on a 2 TB model after a predicate on the partition column.\n"
    ),
    "/tests/unique-combination.md": (
        "dbt_utils.unique_combination_of_columns runs much faster than a unique test on a concatenated key "
        "for wide BigQuery tables.\n"
    ),
}


class Command(JsonCommand):
    help = (
        "Load demo data for a first run and print the demo agents' tokens (stdout) and the admin login (stderr). "
        f"The admin's password is read from {ADMIN_PASSWORD_ENV}, or generated and printed on stderr."
    )

    def run(self, **options: Any) -> dict[str, Any]:
        try:
            with transaction.atomic():
                return self._seed()
        except ConsoleError as exc:
            raise CommandError(f"The demo data could not be loaded: {exc.message}") from exc

    def _seed(self) -> dict[str, Any]:
        client = Client.objects.filter(name=CLIENT["name"]).first() or registry.client_add(**CLIENT)
        toolset = Toolset.objects.filter(name__iexact=TOOLSET).first() or registry.toolset_add(name=TOOLSET)
        project = JiraProject.objects.filter(key=PROJECT_KEY).first() or registry.project_add(
            key=PROJECT_KEY, client=client, toolsets=[toolset]
        )
        project.toolsets.add(toolset)

        agents = []
        for name, account_id in AGENTS:
            agent = HostedAgent.objects.filter(name=name).first()
            if agent is None:
                agent, token = registry.agent_add(name=name, jira_account_id=account_id)
            else:
                _, token = token_issue_for_agent(agent)
            agents.append({"name": agent.name, "token": token})
        pod = Pod.objects.filter(name=POD).first() or registry.pod_add(
            name=POD, agents=[name for name, _ in AGENTS], projects=[PROJECT_KEY]
        )
        pod.agents.add(*HostedAgent.objects.filter(name__in=[name for name, _ in AGENTS]))
        pod.projects.add(project)

        admin, admin_password = self._admin()
        contact, contact_password = self._contact()
        escalation_contact_add(key=project.key, username=contact.get_username())

        for title, text in STANDING_DECISIONS.items():
            # Once per title: a ruling a person edited stays as they left it.
            if not project.standing_decisions.filter(title__iexact=title).exists():
                StandingDecision.objects.create(project=project, title=title, text=text, created_by=admin)

        writer = Writer(user=admin, door="import")
        counts = {"created": 0, "updated": 0, "unchanged": 0}
        for store, memories in (
            (project.store, PROJECT_MEMORIES),
            (Store.objects.get(kind=StoreKind.PRACTICE), PRACTICE_MEMORIES),
            (toolset.store, TOOLSET_MEMORIES),
        ):
            for path, content in memories.items():
                if _ever_held(store, path):
                    counts["unchanged"] += 1  # as a person left it: changed, deleted or redacted
                    continue
                memory_create(writer=writer, store=store, path=path, content=content, reason="demo data")
                counts["created"] += 1

        # The JSON carries exactly the issue's keys; the rest of what a person needs goes to stderr.
        self.stderr.write(
            f"Demo project {project.key} (store {project.store.public_id}), escalation contact "
            f"{contact.get_username()}; demo memories created {counts['created']}, updated {counts['updated']}, "
            f"unchanged {counts['unchanged']}."
        )
        if admin_password is not None:
            self.stderr.write(f"Admin login for /admin/ and /console/: {admin.get_username()} / {admin_password}")
        if contact_password is not None:
            self.stderr.write(
                f"Escalation contact login for /console/ (project {project.key}): "
                f"{contact.get_username()} / {contact_password}"
            )
        return {"agents": agents, "admin": {"username": admin.get_username()}}

    def _admin(self) -> tuple[Any, str | None]:
        """The demo admin, and its new generated password (None when the environment gave it)."""
        from_env = os.environ.get(ADMIN_PASSWORD_ENV) or None
        password = from_env or secrets.token_urlsafe(12)
        User = get_user_model()
        admin = User.objects.filter(username=ADMIN_USERNAME).first()
        if admin is None:
            admin = registry.person_add(username=ADMIN_USERNAME, admin=True, password=password)
        else:
            # A re-run prints a login that works, so the password is set again.
            admin.is_superuser = admin.is_staff = admin.is_active = True
            admin.set_password(password)
            admin.save()
        return admin, (password if from_env is None else None)

    def _contact(self) -> tuple[Any, str | None]:
        """The demo escalation contact, with a password set anew (None when the environment gave it)."""
        from_env = os.environ.get(CONTACT_PASSWORD_ENV) or None
        password = from_env or secrets.token_urlsafe(12)
        User = get_user_model()
        contact = User.objects.filter(username=CONTACT_USERNAME).first()
        if contact is None:
            contact = registry.person_add(
                username=CONTACT_USERNAME, email="demo-contact@example.com", password=password
            )
        else:
            contact.is_active = True
            contact.set_password(password)
            contact.save()
        return contact, (password if from_env is None else None)


def _ever_held(store: Store, path: str) -> bool:
    """Whether the store has ever held a memory at ``path``: live, deleted, renamed away, or
    redacted after a person deleted it (only a keyed fingerprint of that path remains)."""
    if Memory.objects.filter(store=store, path=path).exists():
        return True
    if Memory.history.filter(store_id=store.pk, path=path).exists():  # renamed away since
        return True
    fingerprint = path_fingerprint(store.pk, path)
    return Memory.objects.filter(store=store, redacted_at__isnull=False).filter(
        **{f"redacted_by__{PATH_FINGERPRINT_KEY}": fingerprint}
    ).exists()
