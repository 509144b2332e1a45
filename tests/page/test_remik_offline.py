"""Remik moves ruled in the browser with no network, from the saved pack (real Chromium).

A fresh browser profile opens the page with the server, saves Remik for offline use (the
page's own button), and every move is ruled by the server over HTTP; then the server stops
and the page, opened again by a new navigation, rules the same moves on the device
(``service/static/remik-offline.js``, from the pack's ``move`` rules and word list). The two
must agree on every move (tools.remik_moves.project: kinds, groups, reasons and their texts,
reading, points, penalty, letters back to the shelf, outcome; an unreadable move by its
error code): at least 500 moves drawn from the words of a small real release, of every
shape (leftovers typed or not, penalties, openings, re-openings, wrong words, the variants,
the referee's reading), and the corpus tests/data/remik-moves.json that the library passes
too. Then the page's Remik form rules a move offline; a screenshot at 390 px of it goes to
test-artifacts/offline/.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from tests.conftest import publish
from tests.page.test_offline import first_visit, under_worker
from tests.page.test_referee_page import ARTIFACTS, browser  # noqa: F401  (a fixture)
from tests.query_data import running_server
from tests.verdicts.test_remik_corpus import load as load_corpus
from tools.remik_flood import heavy_moves
from tools.remik_moves import draw, project, records

DRAWN = 600

RULE_MOVES = """
const [game, moves, lang, done] = arguments;
Offline.load(game).then((pack) => done(moves.map((m) => {
  try { return RemikOffline.ruleMove(pack, { ...m, lang }); } catch (err) {
    if (err instanceof Offline.OfflineError) return { error: { code: err.code } };
    return { failed: String(err && err.stack || err) };
  }
}))).catch((err) => done({ failed: String(err && err.stack || err) }));
"""


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("remik-offline-home")
    publish(root, "remik", records())        # a small real release: the corpus's words
    return root


def on_server(base: str, move: dict[str, Any], lang: str) -> dict[str, Any]:
    req = urllib.request.Request(f"{base}/v1/games/remik/move",
                                 json.dumps({**move, "lang": lang}).encode(),
                                 {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as exc:
        assert exc.code in (400, 422), exc.code
        return {"error": {"code": json.loads(exc.read())["code"]}}


@pytest.fixture(scope="module")
def saved(home: Path, browser: webdriver.Chrome) -> Iterator[tuple[str, list[Any]]]:  # noqa: F811
    """The page saved Remik with the server up; the server's rulings of the drawn moves."""
    # and the heaviest moves a request may carry: refused alike (move_too_complex), since
    # both searches count the same units of work
    moves = draw(DRAWN, seed=39) + [body for _label, body in heavy_moves()]
    with ExitStack() as stack:
        base = stack.enter_context(running_server(home))
        driver = browser
        first_visit(driver, base, "/?game=remik&mode=judge&lang=pl")
        wait = WebDriverWait(driver, 60, ignored_exceptions=(StaleElementReferenceException,))
        wait.until(lambda d: d.find_element(By.ID, "offline-save").click() or True)
        wait.until(lambda d: "remik-" in d.find_element(By.ID, "offline-status").text)
        expected = [project(on_server(base, m, "pl")) for m in moves]
        under_worker(driver, base + "/?game=remik&mode=judge&lang=pl")
        stack.close()                                 # the network is gone
        with pytest.raises(OSError):
            urllib.request.urlopen(base + "/v1/games", timeout=5)
        yield base, list(zip(moves, expected, strict=True))


def test_remik_moves_are_ruled_on_the_device_as_on_the_server(
        saved: tuple[str, list[Any]], browser: webdriver.Chrome) -> None:  # noqa: F811
    base, cases = saved
    driver = browser
    driver.set_script_timeout(120)
    driver.get(base + "/?game=remik&mode=judge&lang=pl")       # a new navigation, offline
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
        "return typeof RemikOffline !== 'undefined'"))
    corpus = load_corpus()
    cases = cases + [(c["move"], c["ruling"]) for c in corpus["moves"]]
    got = driver.execute_async_script(RULE_MOVES, "remik", [m for m, _ in cases], "pl")
    assert isinstance(got, list), got
    differ = [(move, want, have) for (move, want), have in zip(cases, got, strict=True)
              if "failed" in have or project(have) != want]
    assert not differ, differ[:3]
    assert len(cases) >= 500 + len(corpus["moves"])
    shapes = {(w.get("error") and "error") or w["outcome"][0] for _m, w in cases}
    assert shapes == {"error", "move_stands", "move_taken_back", "move_wrong_word"}
    assert any(w.get("to_shelf") and w["penalty"] for _m, w in cases)        # leftovers
    assert {w.get("kind") for _m, w in cases} >= {"opening", "reopening", "move"}
    assert sum(w.get("error") == "move_too_complex" for _m, w in cases) == len(heavy_moves())


def test_the_remik_form_rules_a_move_offline(saved: tuple[str, list[Any]],
                                             browser: webdriver.Chrome) -> None:  # noqa: F811
    base, _cases = saved
    driver = browser
    driver.set_window_size(390, 844)
    try:
        driver.get(base + "/?game=remik&mode=judge&lang=pl")     # a new navigation, offline
        wait = WebDriverWait(driver, 15)
        wait.until(lambda d: d.find_element(By.ID, "move-after").is_displayed())
        for field, text in (("move-before", "domek"), ("move-after", "dom lis"),
                            ("move-rack", "lis")):
            box = driver.find_element(By.ID, field)
            box.clear()
            box.send_keys(text)
        driver.find_element(By.ID, "move-go").click()
        wait.until(lambda d: d.find_element(By.ID, "move-figures").text)
        # one table, one ruling: E and K broken off domek go back to the shelf
        assert "3" in driver.find_element(By.ID, "move-figures").text
        assert "E K" in driver.find_element(By.ID, "move-shelf").text
        assert driver.find_element(By.ID, "offline-ruling-note")
        kept = json.loads(driver.execute_script("return Offline.exportRulings()")
                          .splitlines()[-1])
        assert kept["offline"] and kept["verdict"] == "stands"
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
        shots = ARTIFACTS / "offline"
        shots.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(shots / "offline-remik-move-pl.png"))
    finally:
        driver.set_window_size(420, 900)
