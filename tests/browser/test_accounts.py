"""Accounts in a real Chromium against a real daphne: sign up, log out and in, a wrong
password, and a password reset whose mail the server writes to files this test reads."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from accounts.services import user_create
from tests.support.processes import ManagedProcess, start_daphne

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse 77"


@pytest.fixture(scope="module")
def mail_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mail")


@pytest.fixture(scope="module")
def server(
    server_env: dict[str, str], process_logs: Path, mail_dir: Path
) -> Iterator[ManagedProcess]:
    """One daphne for this module, sending its mail into files."""
    process = start_daphne(
        {
            **server_env,
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": str(mail_dir),
        },
        process_logs,
    )
    yield process
    process.stop()


@pytest.fixture(scope="module", autouse=True)
def _server_then_orm(server: ManagedProcess, orm_beside_playwright: None) -> None:
    """Start this module's server first, then let the ORM run beside Playwright."""


@pytest.fixture
def open_page(browser: object, server: ManagedProcess) -> Iterator[Callable[[], object]]:
    contexts = []

    def open_() -> object:
        context = browser.new_context(base_url=server.extra["url"])  # type: ignore[attr-defined]
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield open_
    for context in contexts:
        context.close()


def log_in(page, name: str, password: str) -> None:  # type: ignore[no-untyped-def]
    page.goto("/accounts/login/")
    page.get_by_label("Username or email").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def test_sign_up_see_the_empty_profile_log_out_and_back_in(open_page) -> None:  # type: ignore[no-untyped-def]
    page = open_page()
    page.goto("/")
    page.get_by_test_id("signup-link").click()
    page.get_by_label("Username").fill("Vasilisa")
    page.get_by_label("Email").fill("vasilisa@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()

    page.wait_for_url("**/@/Vasilisa")
    assert "Vasilisa" in page.get_by_test_id("signed-in-as").inner_text()
    assert page.get_by_test_id("profile-name").inner_text() == "Vasilisa"
    assert "No games yet" in page.get_by_test_id("no-games").inner_text()
    assert page.get_by_test_id("play-ai").is_visible()
    assert page.get_by_test_id("rating").inner_text().startswith("Rating\n1500")
    assert page.get_by_test_id("provisional").is_visible()

    page.get_by_test_id("logout").click()
    page.get_by_test_id("login-link").wait_for()
    assert page.get_by_test_id("signed-in-as").count() == 0

    log_in(page, "vasilisa@example.com", PASSWORD)
    page.get_by_test_id("signed-in-as").wait_for()
    page.get_by_test_id("own-profile-link").click()
    page.wait_for_url("**/@/Vasilisa")
    assert page.get_by_test_id("no-games").is_visible()


def test_a_wrong_password_shows_the_error_at_the_field(open_page) -> None:  # type: ignore[no-untyped-def]
    user_create(username="ivan", email="ivan@example.com", password=PASSWORD)
    page = open_page()
    log_in(page, "ivan", "not the password 1")
    error = page.locator("#id_password_errors")
    error.wait_for()
    assert "Wrong username, email or password." in error.inner_text()
    assert page.get_by_test_id("signed-in-as").count() == 0
    assert page.get_by_label("Username or email").input_value() == "ivan"


def test_the_reset_mail_arrives_and_its_link_sets_a_new_password(  # type: ignore[no-untyped-def]
    open_page, mail_dir: Path
) -> None:
    user_create(username="marya", email="marya@example.com", password=PASSWORD)
    page = open_page()
    page.goto("/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email").fill("Marya@Example.com")
    page.get_by_role("button", name="Send the link").click()
    page.get_by_test_id("reset-sent").wait_for()

    link = None
    deadline = time.monotonic() + 10
    while link is None and time.monotonic() < deadline:
        for message in mail_dir.glob("*.log"):
            text = message.read_text()
            if "To: marya@example.com" in text:
                found = re.search(r"https?://\S+/accounts/password-reset/\S+/\S+/", text)
                link = found.group(0) if found else None
        time.sleep(0.1)
    assert link, "no reset mail for marya arrived"

    page.goto(link)
    assert page.get_by_test_id("reset-link-invalid").count() == 0
    page.locator("#id_new_password1").fill("a fresh secret 42")
    page.locator("#id_new_password2").fill("a fresh secret 42")
    page.get_by_role("button", name="Set password").click()
    page.get_by_test_id("reset-complete").wait_for()

    log_in(page, "marya", PASSWORD)
    page.locator("#id_password_errors").wait_for()
    log_in(page, "marya", "a fresh secret 42")
    page.get_by_test_id("signed-in-as").wait_for()
    assert "marya" in page.get_by_test_id("signed-in-as").inner_text()
