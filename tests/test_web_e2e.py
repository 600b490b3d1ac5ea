"""End-to-end tests of the playground in a real browser.

``nimlab serve`` runs on a free loopback port; Debian's Chromium (``/usr/bin/chromium``,
installed by ``.ci/run`` when missing) is driven headless by Playwright. Nothing is
downloaded: Playwright is pointed at that executable. A screenshot of every page is saved
under ``test-artifacts/e2e/`` (git-ignored). Every wait is explicit and bounded.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright import sync_api as playwright_api
from playwright.sync_api import Page, expect

CHROMIUM = os.environ.get("NIMLAB_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "e2e"
WAIT = 10_000  # ms: the longest any single step may take


pytestmark = pytest.mark.timeout(60)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = _free_port()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    log_path = ARTIFACTS / f"server-{worker}.log"  # a file: a full pipe would block the server
    log = log_path.open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "nimlab", "serve", "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    try:
        while True:
            try:
                with urllib.request.urlopen(url + "/api/games", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                out = log_path.read_text(errors="replace")
                pytest.fail(f"nimlab serve did not start on {url}: {out}")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing: install the Debian package chromium "
            "(apt-get install -y chromium; .ci/run does it)"
        )
    pw = playwright_api.sync_playwright().start()
    b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, timeout=30_000)
    try:
        yield b
    finally:
        b.close()
        pw.stop()


@pytest.fixture
def page(browser: object) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})  # type: ignore[attr-defined]
    p = context.new_page()
    p.set_default_timeout(WAIT)
    try:
        yield p
    finally:
        context.close()


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def play_url(server: str, **query: str) -> str:
    from urllib.parse import urlencode

    return f"{server}/play?{urlencode(query)}"


def wait_turn(page: Page) -> bool:
    """Wait until it is the human's turn (True) or the game is over (False)."""
    page.wait_for_function(
        "document.body.dataset.over === 'true' || "
        "(document.getElementById('status').textContent.startsWith('Your move') && "
        "!document.body.classList.contains('busy') && "
        "document.querySelectorAll('#options button.option:not([disabled])').length > 0)",
        timeout=WAIT,
    )
    return page.evaluate("document.body.dataset.over") != "true"


def play_out(page: Page, pick: str, max_moves: int = 40) -> None:
    """Play until the game ends, clicking the option matching the CSS selector *pick*."""
    for _ in range(max_moves):
        if not wait_turn(page):
            return
        page.locator(pick).first.click()
        page.wait_for_function("document.body.classList.contains('busy') === false")
    pytest.fail("the game did not end")


def test_win_nim_345_following_hints(server: str, page: Page) -> None:
    page.goto(play_url(server, game="nim", position="3 4 5"))
    expect(page.locator("#status")).to_have_text(re.compile("^Your move"))
    page.get_by_label("Show hints").check()
    expect(page.locator("#options button.option.win")).to_have_count(1)
    expect(page.locator("#options button.option.win")).to_have_text(re.compile("^1 4 5"))
    expect(page.locator("#value-line")).to_contain_text("Grundy value 2")
    shot(page, "play-hints")
    play_out(page, "#options button.option.win")
    expect(page.locator("#status")).to_contain_text("You win!")
    expect(page.locator("#position-text")).to_have_text("0 0 0")
    expect(page.locator("#chart svg")).to_be_visible()
    shot(page, "play-won")


def test_lose_against_the_perfect_computer(server: str, page: Page) -> None:
    page.goto(play_url(server, game="nim", position="3 4 5"))
    play_out(page, "#options button.option[data-winning='false']")
    expect(page.locator("#status")).to_contain_text("The computer wins.")
    shot(page, "play-lost")


def test_undo_and_redo(server: str, page: Page) -> None:
    page.goto(play_url(server, game="nim", position="3 4 5"))
    wait_turn(page)
    expect(page.locator("#undo")).to_be_disabled()
    page.locator("#options button.option[data-position='3 4 1']").click()
    wait_turn(page)
    expect(page.locator("#history li")).to_have_count(3)  # start, my move, its reply
    page.locator("#undo").click()
    wait_turn(page)
    expect(page.locator("#position-text")).to_have_text("3 4 5")
    expect(page.locator("#history li")).to_have_count(1)
    page.locator("#redo").click()
    wait_turn(page)
    expect(page.locator("#history li")).to_have_count(3)
    expect(page.locator("#history li").nth(1)).to_contain_text("3 4 5 → 3 4 1")
    shot(page, "play-undo-redo")


def test_computer_moves_first(server: str, page: Page) -> None:
    page.goto(play_url(server, game="nim", position="1 2 3", first="computer"))
    wait_turn(page)
    expect(page.locator("#history li")).to_have_count(2)
    expect(page.locator("#history li").nth(1)).to_contain_text("Computer: 1 2 3 →")


def test_moore_k2_set_up_and_two_heap_move(server: str, page: Page) -> None:
    page.goto(f"{server}/game/moore")
    shot(page, "setup-moore")
    page.get_by_label(re.compile("^k ")).fill("2")
    page.get_by_label(re.compile("^Position")).fill("3 4 5 9")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#title")).to_have_text("moore(k=2)")
    wait_turn(page)
    # Naito's move changes two heaps: heap 1 to 1 and heap 4 to 5, by clicking stones
    page.get_by_role("button", name="Heap 1: take 2, leave 1").click()
    page.get_by_role("button", name="Heap 4: take 4, leave 5").click()
    expect(page.locator("#pending-text")).to_have_text("1 4 5 5")
    page.get_by_role("button", name="Play this move").click()
    wait_turn(page)
    expect(page.locator("#history li").nth(1)).to_contain_text("3 4 5 9 → 1 4 5 5")
    page.get_by_role("button", name="Explain the winning move").click()
    expect(page.locator("#explanation-content")).to_contain_text("by Naito's procedure")
    shot(page, "play-moore")


def test_misere_game_won_following_hints(server: str, page: Page) -> None:
    page.goto(f"{server}/game/nim")
    page.get_by_label(re.compile("^Position")).fill("2 2 1")
    page.get_by_label("Misère play").check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#title")).to_contain_text("misère")
    page.get_by_label("Show hints").check()
    play_out(page, "#options button.option.win")
    expect(page.locator("#status")).to_contain_text(
        "You win! The computer had to make the last move."
    )
    shot(page, "play-misere-won")


def test_explanation_tree_and_table(server: str, page: Page) -> None:
    page.goto(play_url(server, game="nim", position="3 4 5"))
    wait_turn(page)
    page.get_by_role("button", name="Explain the winning move").click()
    box = page.locator("#explanation-content")
    expect(box).to_contain_text("winning move: 3 4 5 → 1 4 5, by Bouton's rule")
    expect(box).to_contain_text("S19-T1")
    expect(box.locator("table.binary tr.changed")).to_have_count(1)
    page.get_by_role("button", name="Game tree").click()
    expect(page.locator("#tree svg")).to_be_visible()
    shot(page, "play-explanation")
    page.goto(play_url(server, game="wythoff", position="4 6"))
    wait_turn(page)
    page.get_by_role("button", name="Grundy table").click()
    expect(page.locator("table.heat td.mark")).to_have_text(str(_wythoff(4, 6)))
    page.get_by_label("Show hints").check()
    shot(page, "play-wythoff-table")


def _wythoff(x: int, y: int) -> int:
    import nimlab

    return nimlab.grundy("wythoff", (x, y))


def test_illegal_position_and_move_get_clear_messages(server: str, page: Page) -> None:
    page.goto(f"{server}/game/nim")
    page.get_by_label(re.compile("^Position")).fill("3 -4")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("alert")).to_have_text(
        "nim: heap 2 is -4, but heaps must be integers >= 0"
    )
    shot(page, "setup-illegal-position")
    page.goto(play_url(server, game="nim", position="3 4 5"))
    wait_turn(page)
    page.get_by_label(re.compile("^Type your move")).fill("3 5 5")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator("#error")).to_have_text(
        "illegal move: 3 5 5 cannot be reached from 3 4 5 in one move of nim"
    )
    shot(page, "play-illegal-move")


def test_keyboard_only_play(server: str, page: Page) -> None:
    page.goto(play_url(server, game="nim", position="1 2"))
    wait_turn(page)
    for _ in range(80):
        page.keyboard.press("Tab")
        label = page.evaluate("document.activeElement.getAttribute('aria-label') || ''")
        if label.startswith("Heap 2: take 1, leave 1"):
            break
    else:
        pytest.fail("the stones cannot be reached with the Tab key")
    page.keyboard.press("Enter")
    wait_turn(page)
    expect(page.locator("#history li").nth(1)).to_contain_text("1 2 → 1 1")
    page.keyboard.press("u")  # undo shortcut
    expect(page.locator("#position-text")).to_have_text("1 2")


def test_emperor_turtles_and_multiplayer_pages(server: str, page: Page) -> None:
    page.goto(play_url(server, game="emperor", position="1,2 3,3 4"))
    wait_turn(page)
    expect(page.locator("#board .group")).to_have_count(3)
    shot(page, "play-emperor")
    page.goto(play_url(server, game="turtles", position="1,2 3,3"))
    wait_turn(page)
    page.get_by_role("button", name="Coin 3,3: heads").click()
    page.get_by_role("button", name="Coin 1,3: tails").click()
    page.get_by_role("button", name="Play this move").click()
    wait_turn(page)
    expect(page.locator("#history li").nth(1)).to_contain_text("1,2 3,3 → 1,2 1,3")
    shot(page, "play-turtles")
    page.goto(f"{server}/multiplayer")
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#mp-prediction")).to_contain_text("player 2 moves last")
    for _ in range(12):
        page.wait_for_function(
            "document.getElementById('mp-status').textContent.includes('Game over') || "
            "document.querySelectorAll('#mp-options button:not([disabled])').length > 0"
        )
        if "Game over" in page.locator("#mp-status").inner_text():
            break
        before = page.locator("#mp-history li").count()
        page.locator("#mp-options button.win:not([disabled])").first.click()
        page.wait_for_function(f"document.querySelectorAll('#mp-history li').length > {before}")
    expect(page.locator("#mp-status")).to_contain_text("Game over: player 2 made the last move.")
    shot(page, "multiplayer")


def test_home_api_and_phone_width(server: str, page: Page, browser: object) -> None:
    page.goto(server)
    expect(page.get_by_role("link", name="wythoff")).to_be_visible()
    shot(page, "home")
    page.goto(f"{server}/api")
    expect(page.get_by_role("heading", name="POST /api/analysis")).to_be_visible()
    shot(page, "api")
    phone = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True)  # type: ignore[attr-defined]
    try:
        p = phone.new_page()
        p.set_default_timeout(WAIT)
        p.goto(play_url(server, game="nim", position="3 4 5"))
        wait_turn(p)
        p.get_by_label("Show hints").check()
        width = p.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the page is {width}px wide at phone width"
        shot(p, "phone-play")
    finally:
        phone.close()
