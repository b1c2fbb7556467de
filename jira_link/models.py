"""What the console last heard from Jira about tickets."""

from django.db import models


class JiraTicket(models.Model):
    """A ticket's project and assignee, as Jira last said (sync job or webhook)."""

    key = models.CharField(max_length=64, unique=True)
    project_key = models.CharField(max_length=32, db_index=True)
    assignee_account_id = models.CharField(max_length=128, blank=True, default="")
    status = models.CharField(max_length=64, blank=True, default="")
    synced_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["key"]
        verbose_name = "Jira ticket"

    def __str__(self) -> str:
        return self.key
