from rest_framework.permissions import BasePermission

from stores.console_checks.request import Writer


class HasPrincipal(BasePermission):
    """Deny the anonymous: every API call needs an agent's, a person's or a run's token."""

    def has_permission(self, request, view) -> bool:
        return isinstance(request.auth, Writer)
