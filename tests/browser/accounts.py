"""Signing up in the browser as a person does: the form, then the code from the e-mail."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

from tests.browser.conftest import MAIL_DIR
from tests.waiting import until

PASSWORD = "a-long-password-1"


def address(name: str) -> str:
    """An e-mail address of this sign-up's own: the browser tests' server keeps allauth's counts
    per address across tests, and two tests that signed "Gus" up within ten seconds of each other
    met the one-code-per-ten-seconds limit (429) with gus@example.com."""
    return f"{name.lower()}.{uuid.uuid4().hex[:8]}@example.com"


def mailed_code(to: str, timeout: float = 15) -> str:
    """The newest verification code the server e-mailed to this address, once it has (a file
    the forked server writes)."""

    def code() -> str | None:
        for path in sorted(MAIL_DIR.glob("*.log"), key=lambda p: p.stat().st_mtime, reverse=True):
            text = path.read_text()
            if f"To: {to}" in text:
                found = re.findall(r"^\s*([A-Z0-9]{3,}(?:-[A-Z0-9]{3,})*)\s*$", text.split("\n\n", 1)[1], re.M)
                if found:
                    return found[-1]
        return None

    return until(code, f"a code e-mailed to {to}", timeout, every=0.1)


def enter_code(page: Page, email: str) -> None:
    expect(page.locator('input[name="code"]')).to_be_visible()
    page.fill('input[name="code"]', mailed_code(email))
    page.locator('form:has(input[name="code"]) button[type="submit"]').first.click()


def sign_up(page: Page, base: str, name: str, language: str = "en") -> None:
    """Sign up with a password (from the page's own link), and confirm the e-mail's code."""
    email = address(name)
    page.goto(f"{base}/{language}/accounts/signup/")
    page.fill('input[name="username"]', name)
    page.fill('input[name="email"]', email)
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.locator('form.account-form button[type="submit"]').click()
    enter_code(page, email)
    expect(page.locator(".site-account__name")).to_contain_text(name)
