from django.apps import AppConfig


class JiraLinkConfig(AppConfig):
    name = "jira_link"
    verbose_name = "Jira link"
