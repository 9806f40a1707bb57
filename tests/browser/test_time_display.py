"""The "my time zone" toggle in Chromium with the reader in Tokyo: on every public page that
shows a time it is a pressed-or-not button with its state in words beside it; switching it
shows the times in the browser's zone, and the choice follows the reader to the next page."""

import datetime as dt

import pytest

from incidents.models import Component, Incident
from tests.browser.conftest import css, serious_axe_violations, text_of, use_color_scheme, use_viewport, wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

READER_ZONE = "Asia/Tokyo"  # GMT+9 all year, far from the demo's Europe/Oslo


@pytest.fixture
def demo(settings, demo_loaded):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0
    open_incident = Incident.objects.published().open().exclude(status="scheduled").first()
    with_postmortem = Incident.objects.published().filter(postmortem__state="published").first()
    return {
        "component": Component.objects.order_by("position", "pk").first().slug,
        "incident": (open_incident or Incident.objects.published().first()).slug,
        "postmortem": (with_postmortem or Incident.objects.published().first()).slug,
    }


def pages_with_times(demo) -> list[str]:
    return [
        "/",
        f"/components/{demo['component']}/",
        f"/incidents/{demo['incident']}/",
        f"/incidents/{demo['postmortem']}/",
        "/history/",
        "/maintenance/",
    ]


def shown_times(browser) -> list[str]:
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('time[data-local]'), t => t.textContent)"
    )


def not_in_the_readers_zone(browser) -> list[str]:
    """Shown times that are not the moment they mark on a Tokyo clock, stamped GMT+9 (a window
    within one day stamps its end only: "Nov 23, 2026, 16:25 – 22:10 GMT+9")."""
    times = browser.execute_script(
        "return Array.from(document.querySelectorAll('time[data-local]'), t => {"
        " const next = t.nextElementSibling;"
        " const end = next && next.tagName === 'TIME' ? next.textContent : '';"
        " return [t.getAttribute('datetime'), t.textContent, end]; })"
    )
    wrong = []
    for machine, text, window_end in times:
        tokyo = dt.datetime.fromisoformat(machine).astimezone(dt.timezone(dt.timedelta(hours=9)))
        stamp = text if "GMT" in text else window_end
        if f"{tokyo:%H:%M}" not in text or not stamp.endswith("GMT+9"):
            wrong.append(f"{machine} shown as {text!r}")
    return wrong


def zone_notes_shown(browser) -> list[str]:
    """The sentences naming the zone the times are published in, as far as they are visible."""
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('[data-zone-note]'))"
        ".filter(n => n.offsetParent !== null).map(n => n.textContent)"
    )


def pressed(browser) -> str:
    return css(browser, "#local-time-toggle").get_attribute("aria-pressed")


def test_the_reader_switches_to_their_zone_and_every_page_keeps_the_choice(browser, live_server, demo):
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": READER_ZONE})
    first, *others = pages_with_times(demo)
    browser.get(live_server.url + first)
    browser.execute_script("localStorage.removeItem('time-display')")
    browser.refresh()
    served = shown_times(browser)
    assert served and not any("GMT+9" in text for text in served)
    toggle = wait(
        browser,
        lambda _: css(browser, "#local-time-toggle").is_displayed() and css(browser, "#local-time-toggle"),
    )
    assert pressed(browser) == "false"
    assert text_of(browser, "#time-display-state") == "Times: as published, each with its zone"
    [note] = zone_notes_shown(browser)  # the footer's: standard or summer time, by the season
    assert note.startswith("This page's time zone is Central European") and "(Europe/Oslo)." in note

    toggle.click()

    assert pressed(browser) == "true"
    assert text_of(browser, "#time-display-state") == f"Times: your zone ({READER_ZONE})"
    assert not_in_the_readers_zone(browser) == []
    for path in others:
        browser.get(live_server.url + path)
        wait(browser, lambda _: pressed(browser) == "true")
        assert css(browser, "#local-time-toggle").is_displayed(), path
        assert text_of(browser, "#time-display-state") == f"Times: your zone ({READER_ZONE})", path
        assert shown_times(browser), path
        assert not_in_the_readers_zone(browser) == [], path
        assert zone_notes_shown(browser) == [], path  # they would contradict the times shown

    css(browser, "#local-time-toggle").click()  # back to the times as published, on the last page

    assert pressed(browser) == "false"
    assert not any("GMT+9" in text for text in shown_times(browser))
    assert zone_notes_shown(browser)
    browser.get(live_server.url + first)
    wait(browser, lambda _: css(browser, "#local-time-toggle").is_displayed())
    assert pressed(browser) == "false" and shown_times(browser) == served


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_pages_with_the_toggle_on_have_no_serious_axe_violations(browser, live_server, demo, width, scheme):
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": READER_ZONE})
    use_viewport(browser, width)
    use_color_scheme(browser, scheme)
    browser.get(live_server.url + "/history/")
    browser.execute_script("localStorage.setItem('time-display', 'local')")
    found = {}
    for path in (f"/incidents/{demo['postmortem']}/", "/history/", "/maintenance/"):
        browser.get(live_server.url + path)
        wait(browser, lambda _: pressed(browser) == "true")
        violations = serious_axe_violations(browser)
        if violations:
            found[path] = violations
    assert found == {}
