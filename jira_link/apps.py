from django.apps import AppConfig


class JiraLinkConfig(AppConfig):
    name = "jira_link"
    verbose_name = "Jira link"

    def ready(self) -> None:
        from stores.console_checks.ports import provide_ticket_lookup

        from .services import ticket_lookup_for_checks

        # The who-check asks Jira through this port; the stores app never imports the Jira link.
        provide_ticket_lookup(ticket_lookup_for_checks)
