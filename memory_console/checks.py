"""Django system checks for the risky switches: guardian's backend, history reverts, DRF defaults."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Warning, register


@register()
def console_settings_check(app_configs, **kwargs):
    problems = []
    if "guardian.backends.ObjectPermissionBackend" not in settings.AUTHENTICATION_BACKENDS:
        problems.append(
            Warning(
                "guardian's ObjectPermissionBackend is not in AUTHENTICATION_BACKENDS: escalation contacts "
                "would see no stores.",
                hint="Add 'guardian.backends.ObjectPermissionBackend' to AUTHENTICATION_BACKENDS.",
                id="memory_console.W001",
            )
        )
    if not getattr(settings, "SIMPLE_HISTORY_REVERT_DISABLED", False):
        problems.append(
            Error(
                "SIMPLE_HISTORY_REVERT_DISABLED must be True: a revert in the admin would write old text "
                "without the console's checks.",
                hint="Set SIMPLE_HISTORY_REVERT_DISABLED = True.",
                id="memory_console.E001",
            )
        )
    drf = getattr(settings, "REST_FRAMEWORK", {})
    if drf.get("DEFAULT_PERMISSION_CLASSES") != ["stores.api.permissions.HasPrincipal"]:
        problems.append(
            Error(
                "The API's default permission must deny the anonymous (stores.api.permissions.HasPrincipal).",
                id="memory_console.E002",
            )
        )
    if drf.get("EXCEPTION_HANDLER") != "stores.api.errors.exception_handler":
        problems.append(
            Error(
                "The API's exception handler must be stores.api.errors.exception_handler, or errors lose "
                "the envelope the SDK reads.",
                id="memory_console.E003",
            )
        )
    return problems
