"""The referee page in a real headless Chromium, driven through chromedriver (selenium).

Types words as a referee would and reads the verdicts the page shows, in both modes (lookup
and judge) and in the players' languages; emulates a 360 px wide phone and saves screenshots
of both modes to test-artifacts/. Outside CI a machine without Chromium skips this test; in
CI (CI set) a missing browser is a failure, so the page is never silently untested there.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from lexicon.game.gloss import to_cyrillic
from tests.conftest import SmallHomes, publish
from tests.query_data import POLISH, running_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SHOTS = ARTIFACTS / "phone-390"

if not (CHROMIUM and CHROMEDRIVER) and not os.environ.get("CI"):
    pytest.skip("chromium and chromium-driver are not installed (apt-get install chromium "
                "chromium-driver)", allow_module_level=True)

if not os.environ.get("CI"):
    pytest.importorskip("selenium")
from selenium import webdriver  # noqa: E402  (after the skip above)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions as ec  # noqa: E402
from selenium.webdriver.support.select import Select  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def base(small_homes: SmallHomes) -> Iterator[str]:
    with running_server(small_homes("queries+remik")) as url:     # all four games serve
        yield url


def chromium(profile: Path, *flags: str) -> webdriver.Chrome:
    """A headless Chromium whose profile (caches, service workers, storage) is ``profile``:
    a new folder is a browser that never saw the page; ``flags`` are added to the usual."""
    assert CHROMIUM and CHROMEDRIVER, "CI must install chromium and chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=420,900",
                 f"--user-data-dir={profile}", *flags):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    return driver


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    driver = chromium(tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield driver
    finally:
        driver.quit()


def ask(driver: webdriver.Chrome, game: str, word: str) -> dict[str, str]:
    """Choose the game, type the word, press Enter; return what the page shows."""
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    driver.execute_script("document.getElementById('verdict').textContent = ''")
    box = driver.find_element(By.ID, "word")
    box.clear()
    box.send_keys(word + "\n")
    wait_verdict(driver)
    return {key: driver.find_element(By.ID, key).text for key in (
        "verdict", "shown-word", "reason", "tiles", "score", "analyses", "alternatives",
        "fillings", "release")}


def open_page(driver: webdriver.Chrome, base: str, lang: str | None = None) -> None:
    """A fresh page with nothing remembered; ``lang`` chosen explicitly if given."""
    driver.get(base + "/")
    driver.execute_script("localStorage.clear()")
    driver.get(base + "/")
    WebDriverWait(driver, 10).until(ec.presence_of_element_located(
        (By.CSS_SELECTOR, "#game option[value=kvizovka]")))
    if lang:
        Select(driver.find_element(By.ID, "lang")).select_by_value(lang)


def test_referee_types_words_and_reads_verdicts(base: str, browser: webdriver.Chrome) -> None:
    open_page(browser, base, "en")

    seen = ask(browser, "osps", "zażółć")
    assert seen["verdict"] == "VALID"
    assert "zażółcić" in seen["analyses"] and "score 21" in seen["score"]
    assert "verb, imperative, 2nd person singular, perfective aspect" in seen["analyses"]
    assert seen["release"].startswith("osps-")

    seen = ask(browser, "osps", "ok")
    assert seen["verdict"] == "INVALID" and "abbreviation" in seen["reason"]
    assert "[" not in seen["reason"]          # the code is the referee's tools', not shown
    assert browser.find_element(By.ID, "reason").get_attribute("data-code") == "abbreviation"

    seen = ask(browser, "kvizovka", "ЉУБАВ")           # Cyrillic typed, Latin shown
    assert seen["verdict"] == "VALID" and seen["shown-word"] == "ljubav"
    assert seen["tiles"].split()[0] == "LJ" and seen["release"].startswith("kvizovka-")

    seen = ask(browser, "kvizovka", "kući")
    assert seen["verdict"] == "INVALID" and "dative" in seen["reason"]

    seen = ask(browser, "krizemkrazem", "KA?IN")         # joker fillings
    assert seen["verdict"] == "VALID" and "4 words fit" in seen["reason"]
    for name in ("Kacin", "kalin", "Kanin", "Karin"):
        assert name in seen["fillings"]

    seen = ask(browser, "kvizovka", "?ubav")             # one '?' is one tile: LJ too
    assert "ljubav" in seen["fillings"] and "LJ" in seen["fillings"]

    seen = ask(browser, "osps", "k[o")                   # a bad request is shown, not thrown
    assert seen["verdict"] == "Cannot check"

    ARTIFACTS.mkdir(exist_ok=True)
    ask(browser, "osps", "zażółć")
    browser.save_screenshot(str(ARTIFACTS / "referee.png"))
    assert (ARTIFACTS / "referee.png").stat().st_size > 1000


def test_language_follows_the_game_then_the_choice(base: str, browser: webdriver.Chrome) -> None:
    open_page(browser, base)
    lang = Select(browser.find_element(By.ID, "lang"))
    seen = ask(browser, "osps", "zażółć")
    assert lang.first_selected_option.get_attribute("value") == "pl"
    assert seen["verdict"] == "DOBRE" and browser.find_element(By.ID, "check").text == "Sprawdź"
    assert "czasownik, tryb rozkazujący, 2. osoba liczby pojedynczej" in seen["analyses"]
    seen = ask(browser, "kvizovka", "kući")
    assert lang.first_selected_option.get_attribute("value") == "sr"
    assert seen["verdict"] == "NEISPRAVNO" and "oblik koji igra ne dozvoljava" in seen["reason"]
    ask(browser, "krizemkrazem", "kalin")
    assert lang.first_selected_option.get_attribute("value") == "sl"
    lang.select_by_value("en")                         # an explicit choice sticks
    seen = ask(browser, "osps", "ok")
    assert seen["verdict"] == "INVALID" and "an abbreviation or symbol" in seen["reason"]


def judge(driver: webdriver.Chrome, game: str, words: list[str],
          edge: bool | list[bool] = False) -> dict[str, str]:
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    driver.find_element(By.ID, "mode-judge").click()
    box = driver.find_element(By.ID, "play-words")
    box.clear()
    box.send_keys("\n".join(words))
    marks = [edge] * len(words) if isinstance(edge, bool) else edge
    for n, mark in enumerate(marks, 1):            # Kvizovka: a box for each word
        if mark:
            driver.find_element(By.ID, f"edge-{n}").click()
    driver.find_element(By.ID, "judge-go").click()
    wait_verdict(driver, "judge-verdict")
    return {"verdict": driver.find_element(By.ID, "judge-verdict").text,
            "ruling": driver.find_element(By.ID, "ruling").text,
            "release": driver.find_element(By.ID, "release").text}


def test_judge_mode_gives_one_verdict_and_clears_itself(base: str,
                                                       browser: webdriver.Chrome) -> None:
    open_page(browser, base, "en")
    browser.find_element(By.ID, "mode-judge").click()
    seconds = browser.find_element(By.ID, "reset-seconds")
    seconds.clear()
    seconds.send_keys("2")
    seen = judge(browser, "osps", ["zażółć", "ok", "jaźń"])
    assert seen["verdict"] == "INVALID PLAY" and "3 words" in seen["ruling"]
    for word in ("ok", "OK", "zażółć", "jaźń", "2", "second"):   # nothing points at a word
        assert word not in seen["ruling"].split("\n")[:2]
    assert "ok" not in browser.find_element(By.ID, "ruling").text.lower().replace("clears", "")
    assert seen["release"].startswith("osps-")
    WebDriverWait(browser, 6).until(               # the verdict clears itself, words too
        lambda d: not d.find_element(By.ID, "ruling").is_displayed())
    assert browser.find_element(By.ID, "play-words").get_attribute("value") == ""

    seen = judge(browser, "osps", ["zażółć", "jaźń"])
    assert seen["verdict"] == "VALID PLAY"
    seen = judge(browser, "kvizovka", ["džep"])
    assert seen["verdict"] == "INVALID PLAY"
    seen = judge(browser, "kvizovka", ["džep", "ljubav"], edge=True)
    assert seen["verdict"] == "VALID PLAY"
    Select(browser.find_element(By.ID, "lang")).select_by_value("pl")
    assert judge(browser, "osps", ["kot"])["verdict"] == "RUCH DOBRY"


def test_both_modes_fit_a_360px_phone(base: str, browser: webdriver.Chrome) -> None:
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 360, "height": 760, "deviceScaleFactor": 2, "mobile": True})
    try:
        open_page(browser, base)
        ARTIFACTS.mkdir(exist_ok=True)
        ask(browser, "osps", "zażółć")
        shots = {"lookup": ARTIFACTS / "referee-lookup-360.png",
                 "judge": ARTIFACTS / "referee-judge-360.png"}
        fits_and_large(browser)
        browser.save_screenshot(str(shots["lookup"]))
        browser.find_element(By.ID, "mode-judge").click()
        browser.find_element(By.ID, "reset-seconds").clear()
        browser.find_element(By.ID, "reset-seconds").send_keys("30")
        judge(browser, "osps", ["zażółć", "ok"])
        fits_and_large(browser)
        browser.save_screenshot(str(shots["judge"]))
        for shot in shots.values():
            assert shot.stat().st_size > 1000
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def fits_and_large(driver: webdriver.Chrome, expected: int = 360) -> None:
    """No horizontal scroll at the emulated width; every visible control is a large target."""
    width = driver.execute_script("return window.innerWidth")
    assert width == expected
    assert driver.execute_script("return document.documentElement.scrollWidth") <= width
    small = driver.execute_script("""
        const controls = 'button, select, input:not([type=checkbox]), textarea';
        return [...document.querySelectorAll(controls)]
          .filter((e) => e.offsetParent !== null)
          .map((e) => [e.id, e.getBoundingClientRect().height, e.getBoundingClientRect().right])
          .filter(([, h, right]) => h < 44 || right > window.innerWidth);""")
    assert small == []


def wait_verdict(driver: webdriver.Chrome, target: str = "verdict") -> str:
    """The verdict once given (not the "checking" the page shows while it asks)."""
    WebDriverWait(driver, 10).until(lambda d: (e := d.find_element(By.ID, target)).text.strip()
                                    and "pending" not in (e.get_attribute("class") or ""))
    return driver.find_element(By.ID, target).text


def query(driver: webdriver.Chrome) -> dict[str, list[str]]:
    return parse_qs(urlsplit(driver.current_url).query)


def fresh(driver: webdriver.Chrome, base: str, path: str) -> None:
    """Open ``path`` with nothing remembered from earlier tests."""
    driver.get(base + "/")
    driver.execute_script("localStorage.clear()")
    driver.get(base + path)


def test_a_deep_link_opens_the_look_up_with_its_verdict(base: str,
                                                       browser: webdriver.Chrome) -> None:
    fresh(browser, base, "/?game=kvizovka&word=ljubav")
    assert wait_verdict(browser) == "ISPRAVNO"                 # the players' language: sr
    assert browser.find_element(By.ID, "shown-word").text == "ljubav"
    assert Select(browser.find_element(By.ID, "game")).first_selected_option.get_attribute(
        "value") == "kvizovka"
    assert query(browser) == {"game": ["kvizovka"], "word": ["ljubav"]}
    # a look-up may be linked to: the button copies the address
    browser.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": base, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    share = browser.find_element(By.ID, "copy-link")
    assert share.is_displayed() and share.text == "Kopiraj vezu"
    share.click()
    WebDriverWait(browser, 5).until(
        lambda d: d.find_element(By.ID, "copy-status").text.strip())
    status = browser.find_element(By.ID, "copy-status").text
    assert status == "Veza je kopirana" or browser.current_url in status
    if status == "Veza je kopirana":
        copied = browser.execute_async_script(
            "navigator.clipboard.readText().then(arguments[0], () => arguments[0](null))")
        assert copied in (browser.current_url, None)

    # the address keeps in step with what the page shows
    ask(browser, "osps", "zażółć")
    assert query(browser) == {"game": ["osps"], "word": ["zażółć"]}
    Select(browser.find_element(By.ID, "lang")).select_by_value("en")
    assert query(browser) == {"game": ["osps"], "word": ["zażółć"], "lang": ["en"]}
    Select(browser.find_element(By.ID, "game")).select_by_value("krizemkrazem")
    assert query(browser) == {"game": ["krizemkrazem"], "lang": ["en"]}
    fresh(browser, base, "/?game=osps&word=ok&lang=en")       # a link's language, too
    assert wait_verdict(browser) == "INVALID"
    assert "an abbreviation or symbol" in browser.find_element(By.ID, "reason").text


def test_a_deep_link_opens_the_judge_and_never_links_its_verdict(
        base: str, browser: webdriver.Chrome) -> None:
    fresh(browser, base, "/?game=osps&mode=judge")
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "judge").is_displayed())
    assert not browser.find_element(By.ID, "lookup").is_displayed()
    assert query(browser) == {"game": ["osps"], "mode": ["judge"]}
    browser.find_element(By.ID, "reset-seconds").clear()
    browser.find_element(By.ID, "reset-seconds").send_keys("0")
    seen = judge(browser, "osps", ["zażółć", "ok"])
    assert seen["verdict"] == "RUCH ZŁY"
    assert query(browser) == {"game": ["osps"], "mode": ["judge"]}   # no words, no verdict
    assert not [b for b in browser.find_elements(By.CSS_SELECTOR, "#judge button, #ruling *")
                if "link" in b.text.lower() or b.get_attribute("id") == "copy-link"]
    assert not browser.find_element(By.ID, "copy-link").is_displayed()
    browser.find_element(By.ID, "mode-lookup").click()
    assert query(browser) == {"game": ["osps"]}


HINTS = {"osps": "Polish Scrabble:", "remik": "Remik:", "kvizovka": "Kvizovka:",
         "krizemkrazem": "Križemkražem:"}


def test_the_hint_is_the_chosen_games(base: str, browser: webdriver.Chrome) -> None:
    open_page(browser, base, "en")
    for game, start in HINTS.items():
        Select(browser.find_element(By.ID, "game")).select_by_value(game)
        assert browser.find_element(By.ID, "hint").text.startswith(start), game
        # Remik has no jokers: no joker button
        assert browser.find_element(By.ID, "joker").is_displayed() is (game != "remik")
    Select(browser.find_element(By.ID, "lang")).select_by_value("sl")
    Select(browser.find_element(By.ID, "game")).select_by_value("krizemkrazem")
    assert browser.find_element(By.ID, "hint").text.startswith("Križemkražem: ? je ena")


def test_serbian_in_cyrillic(base: str, browser: webdriver.Chrome) -> None:
    open_page(browser, base, "sr-Cyrl")
    seen = ask(browser, "kvizovka", "kući")
    assert seen["verdict"] == "НЕИСПРАВНО"
    assert seen["reason"].startswith("облик који игра не дозвољава")
    assert browser.find_element(By.ID, "check").text == "Провери"
    assert browser.find_element(By.ID, "hint").text.startswith("Квизовка: латиница")
    assert browser.execute_script("return document.documentElement.lang") == "sr-Cyrl"
    seen = ask(browser, "kvizovka", "ljubav")
    assert "именица, женски род" in seen["analyses"]
    assert judge(browser, "kvizovka", ["ljubav"])["verdict"] == "ПОТЕЗ ВАЖИ"
    # the page's own Cyrillic texts are the Serbian ones through the library's transliteration
    texts = browser.execute_script("""
        const flat = (o) => Object.fromEntries(Object.entries(o).flatMap(([k, v]) =>
          typeof v === "string" ? [[k, v]] : typeof v === "object" ?
          Object.entries(v).map(([kk, vv]) => [k + "." + kk, vv]) : []));
        return [flat(UI_TEXT.sr), flat(UI_TEXT["sr-Cyrl"])];""")
    assert texts[0].keys() == texts[1].keys() and len(texts[0]) > 30
    assert {k: to_cyrillic(v) for k, v in texts[0].items()} == texts[1]


PLACEHOLDER_FITS = """
    const box = document.getElementById("word");
    const ph = getComputedStyle(box, "::placeholder");
    const cs = getComputedStyle(box);
    const ctx = document.createElement("canvas").getContext("2d");
    ctx.font = ph.fontWeight + " " + ph.fontSize + " " + cs.fontFamily;
    const text = ph.textTransform === "uppercase" ? box.placeholder.toUpperCase()
                                                  : box.placeholder;
    const room = box.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    return [ctx.measureText(text).width, room, ph.fontSize, box.placeholder];"""


@pytest.mark.parametrize("width", [360, 390])
def test_each_games_look_up_at_a_phones_width(base: str, browser: webdriver.Chrome,
                                             width: int) -> None:
    """Every game's look-up at 360 and 390 px: the game's own hint, a placeholder read whole,
    nothing wider than the screen; screenshots of each at 360 px in test-artifacts/."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 760, "deviceScaleFactor": 2, "mobile": True})
    words = {"osps": "zażółć", "remik": "zażółć", "kvizovka": "ljubav",
             "krizemkrazem": "kalin"}
    try:
        for lang in ("pl", "sr", "sr-Cyrl", "sl", "en"):
            open_page(browser, base, lang)
            for game in words:
                Select(browser.find_element(By.ID, "game")).select_by_value(game)
                text, room, size, placeholder = browser.execute_script(PLACEHOLDER_FITS)
                assert text <= room, (lang, game, placeholder, text, room, size)
        ARTIFACTS.mkdir(exist_ok=True)
        for game, word in words.items():
            open_page(browser, base)
            Select(browser.find_element(By.ID, "game")).select_by_value(game)
            hint = browser.find_element(By.ID, "hint").text
            if width == 360:      # the empty look-up first: the placeholder and the hint
                browser.save_screenshot(str(ARTIFACTS / f"referee-{game}-empty-360.png"))
            seen = ask(browser, game, word)
            assert seen["verdict"] in ("DOBRE", "ISPRAVNO", "VELJA"), (game, seen)
            assert browser.find_element(By.ID, "hint").text == hint
            fits_and_large(browser, width)
            if width == 360:
                browser.save_screenshot(str(ARTIFACTS / f"referee-{game}-360.png"))
        open_page(browser, base, "sr-Cyrl")
        assert ask(browser, "kvizovka", "kući")["verdict"] == "НЕИСПРАВНО"
        fits_and_large(browser, width)
        lines = browser.execute_script("""      // the longest one-word verdict is not broken
            const range = document.createRange();
            range.selectNodeContents(document.getElementById("verdict"));
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;""")
        assert lines == 1
        if width == 360:
            browser.save_screenshot(str(ARTIFACTS / "referee-kvizovka-cyrillic-360.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_page_shows_a_meaning_with_its_source(tmp_path_factory: pytest.TempPathFactory,
                                                  browser: webdriver.Chrome) -> None:
    """A referee asked what a word means reads the dictionary's line, with its source and
    licence; an admitted word no source lists says so."""
    from tests.builds.test_meanings import POL, POL_ENG, _build
    from tests.conftest import POLISH_RECORDS
    from tests.sources.test_source_readers import write_dictd

    home = tmp_path_factory.mktemp("meanings-home")
    root = write_dictd(tmp_path_factory.mktemp("pol"), "freedict-pol-eng", POL_ENG)
    _build(home, "osps", POLISH_RECORDS, {POL: root})
    with running_server(home) as url:
        open_page(browser, url, "en")
        ask(browser, "osps", "kot")
        shown = browser.find_element(By.ID, "meanings").text
        assert "MEANING (FROM THE DICTIONARY)" in shown          # h2, upper case by CSS
        assert "kot: cat; dust bunny (FreeDict Polish-English dictionary, CC-BY-SA-3.0" in shown
        ask(browser, "osps", "jaźń")
        assert "no meaning in this release's dictionaries" in browser.find_element(
            By.ID, "meanings").text
        ask(browser, "osps", "np")                        # not admitted: no meaning line
        assert browser.find_element(By.ID, "meanings").text == ""


def at_phone(driver: webdriver.Chrome, width: int = 390, height: int = 844) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})


def shown(driver: webdriver.Chrome, element: str) -> bool:
    return driver.find_element(By.ID, element).is_displayed()


def test_a_verdict_shown_always_belongs_to_the_input_shown(
        base: str, browser: webdriver.Chrome) -> None:
    open_page(browser, base, "pl")
    assert ask(browser, "osps", "zażółc")["verdict"] == "ZŁE"
    browser.find_element(By.ID, "word").send_keys(Keys.END, Keys.BACK_SPACE, "ć")  # not submitted
    assert not shown(browser, "answer") and browser.find_element(By.ID, "verdict").text == ""
    assert query(browser) == {"game": ["osps"], "lang": ["pl"]}
    Select(browser.find_element(By.ID, "lang")).select_by_value("en")      # no re-check
    assert not shown(browser, "answer")
    assert query(browser) == {"game": ["osps"], "lang": ["en"]}
    assert browser.find_element(By.ID, "word").get_attribute("value") == "zażółć"
    # a submitted word is shown again in the new language, the address unchanged
    assert ask(browser, "osps", "ok")["verdict"] == "INVALID"
    Select(browser.find_element(By.ID, "lang")).select_by_value("pl")
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "verdict").text == "ZŁE")
    assert browser.find_element(By.ID, "reason").text == "skrót lub symbol"
    assert query(browser) == {"game": ["osps"], "word": ["ok"], "lang": ["pl"]}

    # the judge: ticking a word's edge box after a verdict takes the verdict away
    browser.find_element(By.ID, "mode-judge").click()
    browser.find_element(By.ID, "reset-seconds").clear()
    browser.find_element(By.ID, "reset-seconds").send_keys("0")
    assert judge(browser, "kvizovka", ["ljubav", "džep"])["verdict"] == "RUCH ZŁY"
    browser.find_element(By.ID, "edge-2").click()
    assert not shown(browser, "ruling")
    browser.find_element(By.ID, "judge-go").click()
    assert wait_verdict(browser, "judge-verdict") == "RUCH DOBRY"
    browser.find_element(By.ID, "play-words").send_keys("x")
    assert not shown(browser, "ruling")


def test_the_edge_box_is_kvizovkas_and_a_words(base: str, browser: webdriver.Chrome) -> None:
    open_page(browser, base, "en")
    browser.find_element(By.ID, "mode-judge").click()
    for game in ("osps", "krizemkrazem"):
        Select(browser.find_element(By.ID, "game")).select_by_value(game)
        browser.find_element(By.ID, "play-words").send_keys("kot")
        assert not shown(browser, "edge-row") and not browser.find_elements(By.ID, "edge-1")
        browser.find_element(By.ID, "play-words").clear()
    assert judge(browser, "kvizovka", ["ljubav", "džep"], [True, False])["verdict"] == \
        "INVALID PLAY"                                # the edge is ljubav's, not džep's
    assert judge(browser, "kvizovka", ["ljubav", "džep"], [False, True])["verdict"] == \
        "VALID PLAY"
    assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#edge-words label")] == [
        "LJUBAV", "DŽEP"]
    Select(browser.find_element(By.ID, "game")).select_by_value("remik")
    assert not shown(browser, "edge-row") and not shown(browser, "play")


def rule_move(driver: webdriver.Chrome) -> dict[str, str]:
    wait_verdict(driver, "judge-verdict")
    return {key: driver.find_element(By.ID, key).text for key in (
        "judge-verdict", "judge-detail", "move-reasons", "move-figures", "move-shelf",
        "release")}


def reason_codes(driver: webdriver.Chrome) -> list[str]:
    """The codes of the move's reasons, kept in ``data-code`` (never shown)."""
    return [li.get_attribute("data-code")
            for li in driver.find_elements(By.CSS_SELECTOR, "#move-reasons li")]


def test_a_remik_move_from_a_deep_link(base: str, browser: webdriver.Chrome) -> None:
    at_phone(browser)
    try:
        fresh(browser, base, "/?game=remik&mode=judge&before=kotek&after=koty&rack=y")
        seen = rule_move(browser)
        assert seen["judge-verdict"] == "RUCH DOBRY"
        assert seen["judge-detail"].startswith("ruch jest prawidłowy")
        assert seen["move-figures"] == "punkty 4 · kara 4 · razem 0"
        assert seen["move-shelf"] == "Wraca na półeczkę: E K"
        assert seen["release"].startswith("remik-") and seen["move-reasons"] == ""
        assert "KOTY: przebudowany · KOTEK (K O T) + Y · punkty 4" in browser.find_element(
            By.ID, "move-words").text
        assert browser.find_element(By.ID, "move-after").get_attribute("value") == "koty"
        assert query(browser) == {"game": ["remik"], "mode": ["judge"], "before": ["kotek"],
                                  "after": ["koty"], "rack": ["y"]}
        assert shown(browser, "move-copy-link") and not shown(browser, "reset-row")
        fits_and_large(browser, 390)
        SHOTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(SHOTS / "remik-move-390.png"))

        # variant II: an edit takes the ruling away; ruling again gives the new one
        Select(browser.find_element(By.ID, "move-variant")).select_by_value("2")
        assert not shown(browser, "ruling")
        assert query(browser) == {"game": ["remik"], "mode": ["judge"]}
        browser.find_element(By.ID, "move-go").click()
        seen = rule_move(browser)
        assert seen["judge-verdict"] == "RUCH ZŁY" and reason_codes(browser) == [
            "leftover_letters"]
        assert "[" not in seen["move-reasons"]                    # no code shown to players
        assert "letters would stay" not in seen["move-reasons"]   # no English detail
        assert seen["move-figures"] == "punkty 0 · kara 0 · razem 0"
        assert query(browser)["variant"] == ["2"]
        Select(browser.find_element(By.ID, "lang")).select_by_value("en")  # ruled again in en
        WebDriverWait(browser, 10).until(
            lambda d: d.find_element(By.ID, "judge-verdict").text == "INVALID PLAY")
        WebDriverWait(browser, 10).until(lambda d: "letters would stay" in d.find_element(
            By.ID, "move-reasons").text)

        fresh(browser, base, "/?game=remik&mode=judge&after=kota&rack=kota&kind=opening")
        seen = rule_move(browser)
        assert seen["judge-verdict"] == "RUCH ZŁY"
        assert "opening_too_short" in reason_codes(browser)
        assert Select(browser.find_element(By.ID, "move-kind")).first_selected_option \
            .get_attribute("value") == "opening"
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_remiks_look_up_shows_an_opening_only_where_one_can_be(
        base: str, browser: webdriver.Chrome) -> None:
    open_page(browser, base, "pl")
    assert ask(browser, "remik", "kot")["score"] == "punkty 3"          # too short to open
    assert ask(browser, "remik", "kotek")["score"] == "punkty 5 (otwarcie 5)"
    assert "otwarcie" not in ask(browser, "remik", "ul")["score"]       # not even a word


@pytest.mark.parametrize("key", ["__proto__", "constructor", "toString", "hasOwnProperty"])
def test_a_key_from_the_address_sees_only_the_games(base: str, browser: webdriver.Chrome,
                                                    key: str) -> None:
    fresh(browser, base, f"/?game={key}&word=kot&lang={key}")
    wait_verdict(browser)                 # a verdict of a real game, not an error
    assert browser.find_element(By.ID, "verdict").get_attribute("class").split()[1] in (
        "valid", "invalid")
    chosen = Select(browser.find_element(By.ID, "game")).first_selected_option
    assert chosen.get_attribute("value") in HINTS
    fresh(browser, base, f"/?game={key}&mode=judge")
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "judge").is_displayed())
    assert query(browser)["game"][0] in HINTS


def test_languages_scripts_and_the_release_above_the_fold(
        base: str, browser: webdriver.Chrome) -> None:
    at_phone(browser)
    try:
        fresh(browser, base, "/?game=kvizovka&word=ljubav&lang=sr-Cyrl")
        assert wait_verdict(browser) == "ИСПРАВНО"
        assert browser.find_element(By.ID, "shown-word").text == "љубав"
        assert browser.find_element(By.ID, "tiles").text.split()[:2] == ["Љ", "3"]
        assert "љубав — именица" in browser.find_element(By.ID, "analyses").text
        assert "Л-Ј-У-Б-А-В" in browser.find_element(By.ID, "alternatives").text
        game = Select(browser.find_element(By.ID, "game"))
        WebDriverWait(browser, 10).until(
            lambda d: game.first_selected_option.text == "Квизовка")
        assert "Скребл на пољском (ОСПС)" in [o.text for o in game.options]
        release = browser.find_element(By.ID, "release")
        assert release.text.startswith("kvizovka-")
        top, bottom, height = browser.execute_script("""
            const r = document.getElementById("release").getBoundingClientRect();
            return [r.top, r.bottom, window.innerHeight];""")
        assert top >= 0 and bottom <= height == 844
        fits_and_large(browser, 390)
        SHOTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(SHOTS / "kvizovka-cyrillic-390.png"))

        fresh(browser, base, "/?game=osps&word=ok")
        assert wait_verdict(browser) == "ZŁE"
        assert browser.find_element(By.ID, "reason").text == "skrót lub symbol"
        WebDriverWait(browser, 10).until(lambda d: Select(d.find_element(By.ID, "game"))
                                         .first_selected_option.text == "Scrabble (OSPS)")
        ask(browser, "osps", "zażółć")
        browser.save_screenshot(str(SHOTS / "polish-lookup-390.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_an_address_means_what_it_says(base: str, browser: webdriver.Chrome) -> None:
    fresh(browser, base, "/?game=kvizovka&mode=judge")
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "judge").is_displayed())
    browser.get(base + "/?game=kvizovka&lang=sr-Cyrl")      # the judge was the last mode
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "lookup").is_displayed())
    assert not shown(browser, "judge")
    browser.get(base + "/")                                  # a bare address: as last used
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "hint").text)
    assert shown(browser, "lookup")        # the last mode was the look-up, just above


def test_a_deep_link_says_it_is_checking(base: str, browser: webdriver.Chrome) -> None:
    fresh(browser, base, "/")
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 1500, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        browser.get(base + "/?game=kvizovka&word=ljubav")
        WebDriverWait(browser, 10).until(
            lambda d: d.find_element(By.ID, "verdict").text == "Proveravam…")
        assert wait_verdict(browser) == "ISPRAVNO"
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        browser.execute_cdp_cmd("Network.disable", {})


def test_the_page_names_the_games_still_being_built(browser: webdriver.Chrome,
                                                    tmp_path_factory: pytest.TempPathFactory
                                                    ) -> None:
    """A server started while a build runs: the page says which games are still being
    built (the announcement of a live process, here this one) and serves the ready one."""
    from datetime import UTC, datetime, timedelta

    from lexicon.store import announcements

    home = tmp_path_factory.mktemp("building-home")
    publish(home, "osps", POLISH)
    now = datetime.now(UTC)
    announcements.announce("kvizovka", home, started_at=now, expected_at=now + timedelta(minutes=5),
                      position=1, of=1)
    with running_server(home) as there:
        open_page(browser, there, "en")
        notice = browser.find_element(By.ID, "building")
        assert notice.is_displayed()
        WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "building").text
                                         .endswith("(Serbo-Croatian Scrabble)"))
        assert notice.text == ("Still being built (each game answers as soon as it is "
                               "ready): Kvizovka (Serbo-Croatian Scrabble)")
        options = {o.get_attribute("value"): o.text
                   for o in browser.find_elements(By.CSS_SELECTOR, "#game option")}
        assert options["kvizovka"] == "Kvizovka (Serbo-Croatian Scrabble) (being built)"
        assert options["krizemkrazem"] == "Križemkražem (Slovenian Scrabble) (not built)"
        assert ask(browser, "osps", "zażółć")["verdict"] == "VALID"
        seen = ask(browser, "kvizovka", "kuća")             # the server's own message
        assert "kvizovka is still being built" in seen["reason"]
        assert seen["reason"].endswith("[not_ready]")
