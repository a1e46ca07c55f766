"""The tests' Chromium (`tests.support.chromium`): a browser that had to be killed is launched
again for the next test's pages."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_a_killed_browser_is_launched_again_for_the_next_context(browser):
    first = browser.new_context()
    page = first.new_page()
    page.set_content("<p>before</p>")
    browser._kill()  # as after a context that never closed
    browser.close_context(first)  # answers at once: the browser is gone

    second = browser.new_context()
    page = second.new_page()
    page.set_content("<p id=after>after</p>")
    assert page.text_content("#after") == "after"
    browser.close_context(second)
