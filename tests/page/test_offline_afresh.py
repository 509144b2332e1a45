"""The referee page opened afresh with no network, as docs/offline.md tells a referee to
prepare it, in a real headless Chromium with a new profile for each interface language.

A browser that never saw the page visits it once with the server, chooses its language and
presses *Save for offline use* for every game; the server then stops (no network), and the
page is opened by a new navigation (the home-screen icon's bare ``/``) and by a deep link.
Both must show the game list in that language, answer a look-up, judge a play and rule a
Remik move on the device (the move as the server rules it), and give every control an
accessible name in that language. Screenshots at 390 px of the page opened afresh in Polish
(a look-up and a Remik move) and in Serbian Cyrillic (Kvizovka) go to test-artifacts/offline/.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

from tests.conftest import publish
from tests.page.test_referee_page import ARTIFACTS, chromium
from tests.page.test_remik_offline import on_server
from tests.query_data import KRIZEMKRAZEM, KVIZOVKA, POLISH, running_server

GAMES = ("osps", "remik", "kvizovka", "krizemkrazem")
LANGS = ["pl", "sr", "sr-Cyrl", "sl", "en"]


#: for each interface language: a look-up (game, word, the verdict's key in UI_TEXT) and a
#: judged play (game, words, the ruling's key), each in a game that language's players play
CASES: dict[str, dict[str, Any]] = {
    "pl": {"look": ("osps", "ok", "invalid"), "play": ("osps", ["kot", "ok"], "falls")},
    "sr": {"look": ("kvizovka", "ljubav", "valid"),
           "play": ("kvizovka", ["ljubav", "njiva"], "stands")},
    "sr-Cyrl": {"look": ("kvizovka", "љубав", "valid"),
                "play": ("kvizovka", ["љубав", "кућа"], "stands")},
    "sl": {"look": ("krizemkrazem", "kajak", "valid"),
           "play": ("krizemkrazem", ["kalin", "kajak"], "stands")},
    "en": {"look": ("osps", "zażółć", "valid"), "play": ("osps", ["kot", "koty"], "stands")},
}

#: a Remik move ruled on the device in every language: kotek broken to koty with the shelf's
#: Y, its E and K going back to the shelf (4 points, 4 penalty), compared with the server's
MOVE = {"before": ["kotek"], "after": ["koty"], "rack": "y"}

#: each control without text of its own, and the UI_TEXT key that names it
NAMED = {"game": "game", "lang": "language", "word": "wordLabel", "joker": "joker",
         "tiles": "tilesLabel", "play-words": "playWords", "reset-seconds": "resetAfter"}

#: the page opened afresh at a phone's width: Polish (a rejected word, its reason in
#: Polish) and Serbian in Cyrillic (Kvizovka)
SHOTS = {"pl": "/?game=osps&word=ok&lang=pl",
         "sr-Cyrl": "/?game=kvizovka&word=%D1%99%D1%83%D0%B1%D0%B0%D0%B2&lang=sr-Cyrl"}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("afresh-home")
    for game, records in (("osps", POLISH), ("remik", POLISH), ("kvizovka", KVIZOVKA),
                          ("krizemkrazem", KRIZEMKRAZEM)):
        publish(root, game, records)
    return root


@pytest.fixture
def fresh_browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    """A browser that never saw the page: a new profile, so no worker, cache or storage."""
    driver = chromium(tmp_path / "profile")
    try:
        yield driver
    finally:
        driver.quit()


def titles_on_server(base: str, lang: str) -> dict[str, str]:
    with urllib.request.urlopen(f"{base}/v1/games?lang={quote(lang)}", timeout=30) as r:
        return {g["id"]: g["title"] for g in json.loads(r.read())}


def titles_shown(driver: webdriver.Chrome) -> dict[str, str]:
    return {o.get_attribute("value"): o.text
            for o in driver.find_elements(By.CSS_SELECTOR, "#game option")}


def ui_text(driver: webdriver.Chrome, lang: str, key: str) -> str:
    return driver.execute_script("return UI_TEXT[arguments[0]][arguments[1]]", lang, key)


def answered(driver: webdriver.Chrome, element: str) -> bool:
    box = driver.find_element(By.ID, element)
    return box.text.strip() != "" and "pending" not in (box.get_attribute("class") or "")


def opened(driver: webdriver.Chrome, url: str, lang: str, want: dict[str, str]) -> None:
    """A new navigation to ``url``: the games arrive, named in ``lang``."""
    driver.get(url)
    WebDriverWait(driver, 15).until(lambda d: titles_shown(d) == want,
                                    f"{lang}: the game list {titles_shown(driver)}")
    assert driver.execute_script("return document.getElementById('lang').value") == lang


def save_every_game(driver: webdriver.Chrome) -> None:
    """The referee's own button for each game, until the bar names the saved release."""
    wait = WebDriverWait(driver, 60, ignored_exceptions=(StaleElementReferenceException,))
    for game in GAMES:
        Select(driver.find_element(By.ID, "game")).select_by_value(game)
        wait.until(lambda d: d.find_element(By.ID, "offline-save").click() or True)
        wait.until(lambda d, g=game: g + "-" in d.find_element(By.ID, "offline-status").text)


def check_names(driver: webdriver.Chrome, lang: str, ids: list[str]) -> None:
    """Each control's accessible name is the page's text for it in ``lang``."""
    for element in ids:
        name = driver.find_element(By.ID, element).accessible_name
        want = ui_text(driver, lang, NAMED[element])
        assert name == want, (lang, element, name, want)
        if lang != "en":
            assert name != ui_text(driver, "en", NAMED[element]), (lang, element)


@pytest.mark.parametrize("lang", list(CASES))
def test_saved_page_opens_afresh_with_no_network(home: Path, lang: str,
                                                 fresh_browser: webdriver.Chrome) -> None:
    driver = fresh_browser
    case = CASES[lang]
    other = LANGS[(LANGS.index(lang) + 1) % len(LANGS)]
    with ExitStack() as stack:
        base = stack.enter_context(running_server(home))
        titles = {lg: titles_on_server(base, lg) for lg in LANGS}
        ruled = on_server(base, MOVE, lang)
        # the first visit, with the server: the page in the referee's language, every game
        # saved with the bar's button, and nothing else. The page's own requests go past
        # the worker, as on a phone where it takes control only after the page loaded: what
        # the device keeps is what saving keeps, never what the page happened to fetch.
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": True})
        driver.get(f"{base}/?lang={quote(lang)}")
        WebDriverWait(driver, 15).until(lambda d: titles_shown(d) == titles[lang])
        save_every_game(driver)
        driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": False})
    with pytest.raises(urllib.error.URLError):          # the network is gone
        titles_on_server(base, lang)

    # a new navigation: the games named in the language, a look-up and a judged play
    # answered on the device
    opened(driver, f"{base}/?lang={quote(lang)}", lang, titles[lang])
    game, word, verdict = case["look"]
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    box = driver.find_element(By.ID, "word")
    box.send_keys(word + "\n")
    WebDriverWait(driver, 10).until(lambda d: answered(d, "verdict"))
    assert driver.find_element(By.ID, "verdict").text == ui_text(driver, lang, verdict)
    assert driver.find_element(By.ID, "offline-note").is_displayed()
    reason = driver.find_element(By.ID, "reason")
    assert "[" not in reason.text                     # no reason code shown to players
    if verdict == "invalid":
        assert reason.get_attribute("data-code") == "abbreviation"
        assert reason.text == "skrót lub symbol"
    check_names(driver, lang, ["game", "lang", "word", "joker", "tiles"])

    game, words, ruling = case["play"]
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    driver.find_element(By.ID, "mode-judge").click()
    driver.find_element(By.ID, "play-words").send_keys("\n".join(words))
    driver.find_element(By.ID, "judge-go").click()
    WebDriverWait(driver, 10).until(lambda d: answered(d, "judge-verdict"))
    assert driver.find_element(By.ID, "judge-verdict").text == ui_text(driver, lang, ruling)
    assert driver.find_element(By.ID, "offline-ruling-note").is_displayed()
    check_names(driver, lang, ["play-words", "reset-seconds"])

    # a Remik move, on a page opened afresh at the move form: the server's ruling
    if lang == "pl":
        driver.set_window_size(390, 844)
    opened(driver, f"{base}/?game=remik&mode=judge&lang={quote(lang)}", lang, titles[lang])
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "move-after").is_displayed())
    for field, key in (("move-before", "before"), ("move-after", "after"),
                       ("move-rack", "rack")):
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(" ".join(MOVE[key]) if isinstance(MOVE[key], list) else MOVE[key])
    driver.find_element(By.ID, "move-go").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "move-figures").text)
    kept = json.loads(driver.execute_script("return Offline.exportRulings()").splitlines()[-1])
    assert kept["offline"] and kept["verdict"] == ruled["verdict"] == "stands"
    assert driver.find_element(By.ID, "judge-verdict").text == ui_text(driver, lang, "stands")
    assert driver.find_element(By.ID, "move-shelf").text.endswith(" ".join(ruled["to_shelf"]))
    assert str(ruled["total"]) in driver.find_element(By.ID, "move-figures").text
    assert driver.find_element(By.ID, "offline-ruling-note").is_displayed()
    if lang == "pl":
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
        shots = ARTIFACTS / "offline"
        shots.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(shots / "afresh-pl-remik-390.png"))
        driver.set_window_size(420, 900)

    # a deep link to a look-up, opened afresh
    opened(driver, f"{base}/?game=kvizovka&word=ljubav&lang={quote(lang)}", lang, titles[lang])
    WebDriverWait(driver, 10).until(lambda d: answered(d, "verdict"))
    assert driver.find_element(By.ID, "verdict").text == ui_text(driver, lang, "valid")
    cyrillic = lang == "sr-Cyrl"           # the word and tiles as the reader writes them
    assert driver.find_element(By.ID, "shown-word").text == ("љубав" if cyrillic else "ljubav")
    assert driver.find_element(By.ID, "tiles").text.split()[0] == ("Љ" if cyrillic else "LJ")
    assert driver.find_element(By.ID, "offline-note").is_displayed()

    # another language chosen with no network: the games in that one, also when the page
    # is opened again as the home-screen icon opens it (the bare address)
    Select(driver.find_element(By.ID, "lang")).select_by_value(other)
    WebDriverWait(driver, 10).until(lambda d: titles_shown(d) == titles[other],
                                    f"{other}: the game list {titles_shown(driver)}")
    opened(driver, base + "/", other, titles[other])

    if lang in SHOTS:
        driver.set_window_size(390, 844)
        opened(driver, base + SHOTS[lang], lang, titles[lang])
        WebDriverWait(driver, 10).until(lambda d: answered(d, "verdict"))
        assert driver.find_element(By.ID, "offline-note").is_displayed()
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
        shots = ARTIFACTS / "offline"
        shots.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(shots / f"afresh-{lang}-390.png"))
