import pytest

pytestmark = pytest.mark.browser


def test_home_page_loads_in_chromium(page):
    page.goto("/")

    assert page.title() == "Your Trumps"
    assert page.get_by_role("heading", level=1).inner_text() == "Your Trumps"
    assert page.get_by_test_id("login-link").is_visible()
