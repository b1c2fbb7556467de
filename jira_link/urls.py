"""URLs of the Jira link, mounted under /jira/."""

from django.urls import path

from . import views

app_name = "jira_link"

urlpatterns = [
    path("webhook", views.jira_webhook, name="webhook"),
]
