"""The browser tests' screenshots: taken when asked for (`make screenshots`), into the folder
given, page or element; not taken otherwise, and the test goes on the same."""

from __future__ import annotations

from tests.browser.conftest import Shooter


class Drawn:
    """Stands in for a Playwright page (it has `goto`) or, without it, a locator."""

    def __init__(self, page: bool) -> None:
        self.shots: list[dict] = []
        if page:
            self.goto = lambda url: None

    def screenshot(self, **options) -> None:
        self.shots.append(options)


def test_a_picture_asked_for_is_saved_by_name_whole_page_or_view_or_element(tmp_path):
    shoot = Shooter(True, tmp_path)
    page, element = Drawn(page=True), Drawn(page=False)
    assert shoot(page, "table-desktop") == tmp_path / "table-desktop.png"
    assert shoot(page, "chat/phone-top", full_page=False) == tmp_path / "chat" / "phone-top.png"
    assert shoot(element, "profile-accuracy") == tmp_path / "profile-accuracy.png"
    assert page.shots == [
        {"path": str(tmp_path / "table-desktop.png"), "full_page": True},
        {"path": str(tmp_path / "chat" / "phone-top.png"), "full_page": False},
    ]
    assert element.shots == [{"path": str(tmp_path / "profile-accuracy.png")}]
    assert (tmp_path / "chat").is_dir()  # made for the picture that goes in it


def test_no_picture_is_taken_unless_asked_for(tmp_path):
    shoot = Shooter(False, tmp_path)
    page = Drawn(page=True)
    assert shoot(page, "table-desktop") is None
    assert page.shots == []
    assert list(tmp_path.iterdir()) == []


def test_asked_for_by_the_option_or_the_environment(pytestconfig, monkeypatch):
    from tests.browser.conftest import screenshots_wanted

    monkeypatch.delenv("SEVN_SCREENSHOTS", raising=False)
    monkeypatch.setattr(pytestconfig.option, "screenshots", False)
    assert not screenshots_wanted(pytestconfig)
    monkeypatch.setenv("SEVN_SCREENSHOTS", "1")
    assert screenshots_wanted(pytestconfig)
    monkeypatch.delenv("SEVN_SCREENSHOTS")
    monkeypatch.setattr(pytestconfig.option, "screenshots", True)
    assert screenshots_wanted(pytestconfig)
