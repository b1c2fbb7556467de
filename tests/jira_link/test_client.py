"""The Jira client against the stand-in: typed answers, paging, and one error for down, slow and wrong."""

from __future__ import annotations

import logging

import pytest

from jira_link.client import JiraClient, JiraIssue, JiraProjectSummary, JiraUnavailable, normalize_issue_key

ISSUE = "/rest/api/3/issue/ABC-1"
SEARCH = "/rest/api/3/search/jql"
PROJECTS = "/rest/api/3/project/search"


def test_get_issue_returns_project_assignee_and_status(jira_standin):
    jira_standin.set_issue("ABC-1", "ABC", "acct-7", status="In Review")

    issue = JiraClient().get_issue("ABC-1")

    assert issue == JiraIssue(
        key="ABC-1", project_key="ABC", assignee_account_id="acct-7", status="In Review"
    )
    request, _ = jira_standin.server.log[-1]
    assert request.args["fields"] == "project,assignee,status"


def test_get_issue_reports_an_unassigned_ticket_as_none(jira_standin):
    jira_standin.set_issue("ABC-2", "ABC", None)

    assert JiraClient().get_issue("ABC-2").assignee_account_id is None


def test_get_issue_accepts_a_lower_case_key(jira_standin):
    jira_standin.set_issue("ABC-3", "ABC", "acct-7")

    assert JiraClient().get_issue("abc-3").key == "ABC-3"


def test_unknown_ticket_is_none_not_an_outage(jira_standin):
    """Jira's 404 is an answer: the run API turns it into unknown_ticket, not jira_unavailable."""
    assert JiraClient().get_issue("ABC-404") is None
    assert jira_standin.requests_count("/rest/api/3/issue/ABC-404") == 1


@pytest.mark.parametrize("key", ["", "ABC", "ABC-0", "ABC-1/../../myself", "1ABC-2", "ABC-1?x=1", "ABC 1"])
def test_malformed_key_is_unknown_and_never_sent(jira_standin, key):
    assert JiraClient().get_issue(key) is None
    assert jira_standin.server.log == []


def test_normalize_issue_key():
    assert normalize_issue_key(" abc_2-15 ") == "ABC_2-15"
    assert normalize_issue_key("ABC-01") is None


def test_sends_basic_auth_from_settings_read_at_call_time(jira_standin, settings):
    jira_standin.set_issue("ABC-1", "ABC", "acct-7")
    settings.JIRA_API_TOKEN = "-".join(["not", "the", "token"])

    with pytest.raises(JiraUnavailable, match="HTTP 401"):
        JiraClient().get_issue("ABC-1")

    settings.JIRA_API_TOKEN = jira_standin.token
    assert JiraClient().get_issue("ABC-1").assignee_account_id == "acct-7"


@pytest.mark.parametrize("missing", ["JIRA_URL", "JIRA_USER", "JIRA_API_TOKEN"])
def test_not_configured_is_unavailable_and_names_the_setting(jira_standin, settings, missing):
    setattr(settings, missing, "")

    with pytest.raises(JiraUnavailable, match=f"not configured: {missing}"):
        JiraClient().get_issue("ABC-1")
    assert jira_standin.server.log == []


def test_a_non_http_url_is_not_configured(settings):
    settings.JIRA_URL = "ftp://jira.example.test"
    settings.JIRA_USER = "someone@example.test"
    settings.JIRA_API_TOKEN = "x" * 3

    with pytest.raises(JiraUnavailable, match="not configured"):
        JiraClient().get_issue("ABC-1")


def test_down_is_unavailable(jira_standin):
    jira_standin.set_issue("ABC-1", "ABC", "acct-7")
    jira_standin.down()

    with pytest.raises(JiraUnavailable, match="could not be reached"):
        JiraClient().get_issue("ABC-1")

    jira_standin.up()
    assert JiraClient().get_issue("ABC-1").assignee_account_id == "acct-7"


def test_slow_is_unavailable_within_the_timeout(jira_standin, fast_timeout):
    jira_standin.set_issue("ABC-1", "ABC", "acct-7")
    jira_standin.slow(fast_timeout + 0.7)

    # The stand-in would answer after the timeout: the error says the client gave up waiting instead.
    with pytest.raises(JiraUnavailable, match="did not answer within"):
        JiraClient().get_issue("ABC-1")


@pytest.mark.parametrize(
    ("kind", "message"),
    [("500", "HTTP 500"), ("html", "not JSON"), ("missing_fields", "lacked its project")],
)
def test_wrong_answers_are_unavailable(jira_standin, kind, message):
    jira_standin.set_issue("ABC-1", "ABC", "acct-7")
    jira_standin.wrong(kind)

    with pytest.raises(JiraUnavailable, match=message):
        JiraClient().get_issue("ABC-1")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ([1, 2], "not a JSON object"),
        ({"key": "ABC-1"}, "lacked its key or fields"),
        (
            {"key": "ABC-1", "fields": {"project": {"key": "ABC"}, "status": {"name": "To Do"}}},
            "assignee field",
        ),
        (
            {
                "key": "ABC-1",
                "fields": {"project": {"key": "ABC"}, "assignee": {"displayName": "?"}, "status": {}},
            },
            "without an accountId",
        ),
        ({"key": "ABC-1", "fields": {"project": {"key": "ABC"}, "assignee": None}}, "lacked its status"),
    ],
)
def test_json_missing_what_the_console_needs_is_unavailable(jira_standin, body, message):
    """An absent assignee is not read as 'unassigned': Jira did not say."""
    jira_standin.server.expect_oneshot_request(ISSUE).respond_with_json(body)

    with pytest.raises(JiraUnavailable, match=message):
        JiraClient().get_issue("ABC-1")


def test_redirect_is_not_followed(jira_standin):
    """A redirect means JIRA_URL is wrong; credentials are not carried to wherever it points."""
    jira_standin.server.expect_oneshot_request(ISSUE).respond_with_data(
        "", status=302, headers={"Location": "http://127.0.0.1:9/elsewhere"}
    )

    with pytest.raises(JiraUnavailable, match="HTTP 302"):
        JiraClient().get_issue("ABC-1")


def test_errors_and_logs_never_hold_credentials(jira_standin, settings, caplog):
    caplog.set_level(logging.DEBUG)
    for make_it_fail in (lambda: jira_standin.wrong("500"), jira_standin.down):
        make_it_fail()
        with pytest.raises(JiraUnavailable) as failure:
            JiraClient().get_issue("ABC-1")
        assert jira_standin.token not in str(failure.value)
        assert jira_standin.token not in repr(failure.value.__cause__ or "")
    assert jira_standin.token not in caplog.text
    client = JiraClient()
    assert jira_standin.token not in repr(client.config)


def test_search_follows_next_page_token_across_three_pages(jira_standin):
    for n in range(1, 6):
        jira_standin.set_issue(f"ABC-{n}", "ABC", f"acct-{n}")
    jira_standin.search_page_cap = 2

    issues = list(JiraClient().search_issues('project in ("ABC")'))

    assert [issue.key for issue in issues] == ["ABC-1", "ABC-2", "ABC-3", "ABC-4", "ABC-5"]
    assert [issue.assignee_account_id for issue in issues] == [f"acct-{n}" for n in range(1, 6)]
    assert jira_standin.requests_count(SEARCH) == 3
    requests = [request for request, _ in jira_standin.server.log]
    assert "nextPageToken" not in requests[0].args
    assert requests[1].args["nextPageToken"] and requests[2].args["nextPageToken"]
    assert requests[1].args["nextPageToken"] != requests[2].args["nextPageToken"]
    assert {request.args["jql"] for request in requests} == {'project in ("ABC")'}


def test_search_always_asks_for_the_fields_it_needs(jira_standin):
    jira_standin.set_issue("ABC-1", "ABC", None)

    list(JiraClient().search_issues("project = ABC", fields=["summary"]))

    request, _ = jira_standin.server.log[-1]
    assert request.args["fields"] == "project,assignee,status,summary"


def test_search_stops_on_a_repeated_page_token(jira_standin):
    page = {"issues": [], "nextPageToken": "same", "isLast": False}
    jira_standin.server.expect_oneshot_request(SEARCH).respond_with_json(page)
    jira_standin.server.expect_oneshot_request(SEARCH).respond_with_json(page)

    with pytest.raises(JiraUnavailable, match="did not advance"):
        list(JiraClient().search_issues("project = ABC"))


@pytest.mark.parametrize("kind", ["500", "html", "missing_fields"])
def test_search_wrong_midway_is_unavailable(jira_standin, kind):
    for n in range(1, 6):
        jira_standin.set_issue(f"ABC-{n}", "ABC", "acct-1")
    jira_standin.search_page_cap = 2
    jira_standin.wrong(kind, after=1)

    with pytest.raises(JiraUnavailable):
        list(JiraClient().search_issues("project = ABC"))


def test_list_projects_pages_by_start_at(jira_standin):
    for key in ("AAA", "BBB", "CCC", "DDD", "EEE"):
        jira_standin.set_project(key, f"Project {key}")
    jira_standin.project_page_cap = 2

    projects = list(JiraClient().list_projects())

    assert projects[0] == JiraProjectSummary(key="AAA", name="Project AAA")
    assert [project.key for project in projects] == ["AAA", "BBB", "CCC", "DDD", "EEE"]
    assert [request.args["startAt"] for request, _ in jira_standin.server.log] == ["0", "2", "4"]


def test_list_projects_missing_fields_is_unavailable(jira_standin):
    jira_standin.set_project("AAA")
    jira_standin.wrong("missing_fields")

    with pytest.raises(JiraUnavailable, match="lacked values or isLast"):
        list(JiraClient().list_projects())


def test_list_projects_that_never_ends_is_unavailable(jira_standin):
    jira_standin.server.expect_oneshot_request(PROJECTS).respond_with_json({"values": [], "isLast": False})

    with pytest.raises(JiraUnavailable, match="did not advance"):
        list(JiraClient().list_projects())
