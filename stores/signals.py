"""Signals join what must not know each other: the version columns a service set, and the practice
store after migrate. No business rule rides on a signal: stores and permission grants are made by
explicit service calls from every door (``services.stores``, ``services.grants``).
"""

from __future__ import annotations

from django.db.models.signals import post_migrate
from django.dispatch import receiver
from simple_history.signals import pre_create_historical_record

from .models import Memory
from .operations import VersionOperation
from .services.stores import practice_store_ensure


@receiver(pre_create_historical_record)
def copy_version_fields(sender, instance, history_instance, **kwargs) -> None:
    """Copy what the service set on the memory (operation, actor, run, version id) onto the version."""
    if not isinstance(instance, Memory):
        return
    meta = getattr(instance, "_version_meta", None) or {}
    history_instance.version_id = instance.head_version_id or history_instance.version_id
    history_instance.operation = meta.get("operation", VersionOperation.MODIFIED)
    history_instance.actor = meta.get("actor")
    history_instance.run_public_id = meta.get("run_public_id", "")
    history_instance.api_key_id = meta.get("api_key_id", "")
    history_instance.provenance = meta.get("provenance")


@receiver(post_migrate)
def practice_store_after_migrate(sender, app_config=None, **kwargs) -> None:
    """The practice store is data the schema promises (a migration made it); a flush removes it, so
    it is made again after every migrate."""
    if app_config is not None and app_config.label == "stores":
        practice_store_ensure()
