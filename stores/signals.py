"""Signals join things that must not know each other: version columns, and each kind's store."""

from __future__ import annotations

from django.db.models.signals import m2m_changed, post_migrate, post_save
from django.dispatch import receiver
from simple_history.signals import pre_create_historical_record

from .models import HostedAgent, JiraProject, Memory, Store, StoreKind, Toolset


@receiver(pre_create_historical_record)
def copy_version_fields(sender, instance, history_instance, **kwargs) -> None:
    """Copy what the service set on the memory (operation, actor, run, version id) onto the version."""
    if not isinstance(instance, Memory):
        return
    meta = getattr(instance, "_version_meta", None) or {}
    history_instance.version_id = instance.head_version_id or history_instance.version_id
    history_instance.operation = meta.get("operation", "modified")
    history_instance.actor = meta.get("actor")
    history_instance.run_public_id = meta.get("run_public_id", "")
    history_instance.api_key_id = meta.get("api_key_id", "")


def ensure_practice_store() -> Store:
    """The one practice store; made by a migration and again after every flush."""
    store = Store.objects.filter(kind=StoreKind.PRACTICE).first()
    if store is None:
        store = Store.objects.create(
            kind=StoreKind.PRACTICE,
            name="Practice",
            description="Rittman Analytics patterns and house conventions. Read-only to agents.",
        )
    return store


@receiver(post_migrate)
def practice_store_after_migrate(sender, app_config=None, **kwargs) -> None:
    if app_config is not None and app_config.label == "stores":
        ensure_practice_store()


@receiver(post_save, sender=JiraProject)
def project_store(sender, instance: JiraProject, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw:
        Store.objects.get_or_create(
            project=instance,
            defaults={
                "kind": StoreKind.PROJECT,
                "name": f"Project {instance.key}",
                "description": f"What agents have learned on the Jira project {instance.key}.",
            },
        )


@receiver(post_save, sender=HostedAgent)
def agent_store(sender, instance: HostedAgent, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw:
        Store.objects.get_or_create(
            agent=instance,
            defaults={
                "kind": StoreKind.AGENT,
                "name": f"Agent {instance.name}",
                "description": f"{instance.name}'s own lessons on tools, Wire commands and its role. No client detail.",
            },
        )


@receiver(post_save, sender=Toolset)
def toolset_store(sender, instance: Toolset, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw:
        Store.objects.get_or_create(
            toolset=instance,
            defaults={
                "kind": StoreKind.TOOLSET,
                "name": f"Toolset {instance.name}",
                "description": f"Lessons true for every client on {instance.name}. Read-only to agents.",
            },
        )


@receiver(m2m_changed, sender=JiraProject.escalation_contacts.through)
def contacts_changed(sender, instance, action: str, reverse: bool, pk_set=None, **kwargs) -> None:
    """Naming or removing a contact, from any door, grants or withdraws at once."""
    if action not in ("post_add", "post_remove", "post_clear"):
        return
    from .services.grants import escalation_contacts_sync

    if reverse:
        projects = JiraProject.objects.filter(pk__in=pk_set) if pk_set else JiraProject.objects.all()
        for project in projects:
            escalation_contacts_sync(project)
    else:
        escalation_contacts_sync(instance)
