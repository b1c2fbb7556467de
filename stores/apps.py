from django.apps import AppConfig


class StoresConfig(AppConfig):
    name = "stores"
    verbose_name = "Memory stores"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (copies version columns; makes the practice store after migrate)
        from .services import change_notices, version_hooks

        # Readers waiting on a store's changes (a run folder's held change feed) hear of each write.
        version_hooks.on_version_written(change_notices.notice_version_written)
