from django.apps import AppConfig


class StoresConfig(AppConfig):
    name = "stores"
    verbose_name = "Memory stores"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (copies version columns; makes the practice store after migrate)
        from .console_checks.detectors.secrets import redact
        from .scrubbing import install_scrubber
        from .services import change_notices, version_hooks

        # Every scrubbed field (stores.scrubbing) passes the free text it saves through the secret
        # detector; the models cannot import the checks, so the detector is installed here, once.
        install_scrubber(redact)

        # Readers waiting on a store's changes (a run folder's held change feed) hear of each write.
        version_hooks.on_version_written(change_notices.notice_version_written)
