"""The console's Content-Security-Policy: no script runs on its pages, and its stylesheet still applies."""

from __future__ import annotations

import base64
import hashlib
import os
import re

import pytest
from django.template.loader import render_to_string
from django.test import Client

from .html_tags import tags_in
from .test_browser import CHROMIUM, CHROMIUM_ARGS


def policy_of(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    directives = [part.split() for part in header.split(";") if part.strip()]
    return {d[0]: d[1:] for d in directives}


def inline_style_hashes(html: str) -> list[str]:
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"
        for text in re.findall(r"<style>(.*?)</style>", html, re.DOTALL)
    ]


def assert_locked_down(response) -> None:
    policy = policy_of(response)
    assert policy["script-src"] == ["'none'"] and policy["default-src"] == ["'none'"]
    assert not any("unsafe" in source for sources in policy.values() for source in sources)
    assert policy["frame-ancestors"] == ["'none'"] and policy["form-action"] == ["'self'"]
    html = response.content.decode()
    styles = inline_style_hashes(html)
    assert styles and set(styles) <= set(policy["style-src"])
    # The console needs no script: none on the page, no handler attributes, no javascript: links.
    for tag, attrs in tags_in(html):
        assert tag != "script"
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)
        assert not attrs.get("href", "").lower().startswith("javascript:")


@pytest.mark.django_db
def test_every_console_page_carries_the_policy_and_renders(signed_in, scene):
    anonymous = Client().get("/console/login/")
    assert anonymous.status_code == 200
    assert_locked_down(anonymous)
    client = signed_in("admin")
    store, live, gone = scene.store.public_id, scene.live.public_id, scene.deleted.public_id
    for url in (
        "/console/",
        f"/console/stores/{store}/",
        f"/console/stores/{store}/memories/{live}/",
        f"/console/stores/{store}/memories/{live}/delete/",
        f"/console/stores/{store}/deleted/",
        f"/console/stores/{store}/deleted/{gone}/redact/",
        f"/console/set-asides/{scene.set_aside.public_id}/",
        "/console/no-such-page/",
    ):
        response = client.get(url)
        assert response.status_code in (200, 404), url
        assert_locked_down(response)


@pytest.mark.django_db
def test_the_error_page_s_stylesheet_is_the_one_the_policy_allows(signed_in):
    response = signed_in("admin").get("/console/")
    assert inline_style_hashes(render_to_string("500.html")) == inline_style_hashes(response.content.decode())


@pytest.mark.django_db
def test_the_api_answers_json_without_the_console_s_policy(api, world):
    response = api.as_token(world.agent_token).get("/api/v1/memory_stores")
    assert response.status_code == 200 and "Content-Security-Policy" not in response


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
@pytest.mark.django_db(transaction=True)
def test_in_chromium_the_stylesheet_applies_and_nothing_is_refused(live_server, world):
    from django.db import connections
    from playwright.sync_api import sync_playwright

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    refused: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.on("console", lambda message: refused.append(message.text)
                    if "Content Security Policy" in message.text else None)
            page.goto(f"{live_server.url}/console/login/")
            header = page.evaluate("getComputedStyle(document.querySelector('header.top')).backgroundColor")
            injected = page.evaluate(
                "() => { const s = document.createElement('style'); s.textContent = 'body { color: rgb(1, 2, 3) }';"
                " document.head.appendChild(s); return getComputedStyle(document.body).color; }"
            )
        finally:
            connections.close_all()
            browser.close()
    assert header == "rgb(31, 41, 51)"  # --ink: the inline stylesheet applied
    assert injected != "rgb(1, 2, 3)"  # a style the policy does not know is refused
    assert refused and all("style" in text for text in refused)  # only the injected style was refused
