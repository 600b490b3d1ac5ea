"""End-to-end tests of the playground in a real browser.

``nimlab serve`` runs on a free loopback port; Debian's Chromium (``/usr/bin/chromium``,
installed by ``.ci/run`` when missing) is driven headless by Playwright. Nothing is
downloaded: Playwright is pointed at that executable. A screenshot of every page is saved
under ``test-artifacts/e2e/`` (git-ignored). Every wait is explicit and bounded.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright import sync_api as playwright_api
from playwright.sync_api import Page, expect
from serve_process import nimlab_serve

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


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Iterator[str]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    log = ARTIFACTS / f"server-{worker}.log"
    # Chromium starts while the server imports its web stack (each takes 1-3 s)
    start_browser = lambda: request.getfixturevalue("browser")  # noqa: E731
    with nimlab_serve([], log, start_timeout=30, meanwhile=start_browser) as url:
        yield url


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


DESKTOP = {"width": 1200, "height": 900}
#: The two kinds of browser context: a desktop's, and a phone's (a touch screen).
KINDS: dict[str, dict[str, bool]] = {"desktop": {}, "phone": {"is_mobile": True, "has_touch": True}}


class _Pages:
    """One page of each kind for the whole module: a new page starts a renderer process of
    Chromium (0.3-0.6 s, 38 times), while a test's first ``goto`` replaces the page's
    document anyway. Between tests a page is left as a new one is (a blank document, the
    screen media, the mouse in the corner); the playground keeps no cookie or storage. A
    page that cannot be reset is closed, and the next test gets a new one."""

    def __init__(self, browser: object) -> None:
        self.browser = browser
        self.kept: dict[str, Page] = {}

    def get(self, kind: str, viewport: dict[str, int]) -> Page:
        p = self.kept.get(kind)
        if p is None:
            context = self.browser.new_context(viewport=viewport, **KINDS[kind])  # type: ignore[attr-defined]
            p = self.kept[kind] = context.new_page()
            p.set_default_timeout(WAIT)
        else:
            p.set_viewport_size(viewport)
        return p

    def release(self, kind: str) -> None:
        p = self.kept[kind]
        try:
            p.emulate_media(media="screen")
            p.mouse.move(0, 0)
            p.goto("about:blank")
        except playwright_api.Error:
            del self.kept[kind]
            with contextlib.suppress(playwright_api.Error):
                p.context.close()

    def close(self) -> None:
        for p in self.kept.values():
            with contextlib.suppress(playwright_api.Error):
                p.context.close()


@pytest.fixture(scope="module")
def pages(browser: object) -> Iterator[_Pages]:
    kept = _Pages(browser)
    try:
        yield kept
    finally:
        kept.close()


@contextlib.contextmanager
def kept_page(pages: _Pages, kind: str, viewport: dict[str, int]) -> Iterator[Page]:
    """The module's page of *kind* at *viewport*, reset for the next test on the way out."""
    try:
        yield pages.get(kind, viewport)
    finally:
        pages.release(kind)


@pytest.fixture
def page(pages: _Pages) -> Iterator[Page]:
    with kept_page(pages, "desktop", DESKTOP) as p:
        yield p


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


def test_home_api_and_phone_width(server: str, page: Page, pages: _Pages) -> None:
    page.goto(server)
    expect(page.get_by_role("link", name="wythoff")).to_be_visible()
    shot(page, "home")
    page.goto(f"{server}/api")
    expect(page.get_by_role("heading", name="POST /api/analysis")).to_be_visible()
    shot(page, "api")
    with kept_page(pages, "phone", {"width": 375, "height": 740}) as p:
        p.goto(play_url(server, game="nim", position="3 4 5"))
        wait_turn(p)
        p.get_by_label("Show hints").check()
        width = p.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the page is {width}px wide at phone width"
        shot(p, "phone-play")


# -- issue 24: the playground ready for a classroom ----------------------------------------


def wait_ready(page: Page) -> None:
    """Wait until it is the human's turn and the position is analysed (options listed or not)."""
    page.wait_for_function(
        "document.getElementById('status').textContent.startsWith('Your move') && "
        "!document.body.classList.contains('busy') && "
        "document.getElementById('options-note').textContent !== '…'",
        timeout=WAIT,
    )


def _dashed(page: Page, heap: int) -> list[bool]:
    """For each stone of heap *heap* (1-based), whether it is drawn as taken (dashed)."""
    return page.evaluate(
        "(h) => [...document.querySelectorAll('#board .heap')[h - 1].querySelectorAll('.stone')]"
        ".map((s) => getComputedStyle(s).borderTopStyle === 'dashed')",
        heap,
    )


def test_hover_preview_equals_the_click(server: str, page: Page) -> None:
    page.goto(play_url(server, game="nim", position="3 4 5"))
    wait_turn(page)
    expect(page.locator("#stone-help")).to_contain_text("keeps the stones before it")
    stone = page.get_by_role("button", name="Heap 1: take 2, leave 1")
    stone.hover()
    dashed = _dashed(page, 1)
    assert dashed == [False, True, True], dashed  # 1 stone left, as the click leaves
    assert _dashed(page, 2) == [False] * 4
    stone.click()
    wait_turn(page)
    expect(page.locator("#history li").nth(1)).to_contain_text("3 4 5 → 1 4 5")
    # the same at every stone of a heap: hovering stone j dashes exactly size - j stones
    page.goto(play_url(server, game="nim", position="6"))
    wait_turn(page)
    for j in range(6):
        page.locator("#board .stone").nth(j).hover()
        assert sum(_dashed(page, 1)) == 6 - j
        assert page.locator("#board .stone").nth(j).get_attribute("data-leave") == str(j)


def _overflow(p: Page) -> int:
    return int(p.evaluate("document.documentElement.scrollWidth"))


def _open_every_panel(p: Page, hints: bool = True) -> None:
    if hints:
        p.get_by_label("Show hints").check()
    p.get_by_role("button", name="Explain the winning move").click()
    expect(p.locator("#explanation-content")).to_be_visible()
    p.locator("#show-tree").click()
    expect(p.locator("#tree svg, #error:not([hidden])").first).to_be_visible()
    if p.locator("#show-table").count():
        p.get_by_role("button", name="Grundy table").click()
        expect(p.locator("table.heat")).to_be_visible()


@pytest.mark.parametrize(
    "width",
    [320, pytest.param(360, marks=pytest.mark.slow), pytest.param(390, marks=pytest.mark.slow)],
)
def test_phones_no_horizontal_overflow_with_every_panel_open(
    server: str, pages: _Pages, width: int
) -> None:
    with kept_page(pages, "phone", {"width": width, "height": 800}) as p:
        for game, position in (
            ("nim", "3 4 5"),
            ("wythoff", "4 6"),
            ("nim", "123456789 987654321 555555555"),
        ):
            p.goto(play_url(server, game=game, position=position))
            wait_ready(p)
            _open_every_panel(p)
            assert _overflow(p) <= width, f"{game} {position}: {_overflow(p)}px wide at {width}"
            box = p.locator("#show-tree").bounding_box()
            assert box is not None and box["x"] + box["width"] <= width
        shot(p, f"phone-{width}-every-panel")


def test_touch_targets_at_least_44px_on_a_phone(server: str, pages: _Pages) -> None:
    with kept_page(pages, "phone", {"width": 390, "height": 844}) as p:
        for game, position in (("nim", "3 4 25"), ("turtles", "1,2 3,3"), ("emperor", "1,2 3,3 4")):
            p.goto(play_url(server, game=game, position=position))
            wait_turn(p)
            small = p.evaluate(
                """() => [...document.querySelectorAll(
                    'main button, main input, main select, main .row input[type=checkbox] + label')]
                  .filter((e) => e.offsetParent !== null)
                  .map((e) => [e.id || e.getAttribute('aria-label') || e.textContent,
                               e.getBoundingClientRect()])
                  .filter(([, r]) => r.height < 44 || (r.width < 44))
                  .map(([n, r]) => n + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""
            )
            assert small == [], f"{game}: targets under 44 px: {small[:5]}"
            # heaps of many stones wrap without touching the next heap
            rows = p.evaluate(
                "[...document.querySelectorAll('#board .heap .stones')]"
                ".map((s) => s.getBoundingClientRect()).map((r) => [r.top, r.bottom])"
            )
            for (_, bottom), (top, _) in itertools.pairwise(rows):
                assert top >= bottom + 4, rows
        shot(p, "phone-touch-targets")


def _boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize(("width", "position"), [(1280, "1234 5678 9012"), (390, "123 456 789")])
def test_big_heap_sizes_do_not_overlap_their_label(
    server: str, pages: _Pages, width: int, position: str
) -> None:
    with kept_page(pages, "desktop", {"width": width, "height": 900}) as p:
        p.goto(play_url(server, game="nim", position=position))
        wait_turn(p)
        for k in range(3):
            heap = p.locator("#board .heap").nth(k)
            label = heap.locator(".heap-label").bounding_box()
            size = heap.locator(".heap-size").bounding_box()
            assert label and size and not _boxes_overlap(label, size), (label, size)
            assert heap.locator(".heap-size").inner_text() == position.split()[k]


def test_nine_digit_heaps_binary_table_and_chart_legible(server: str, page: Page) -> None:
    page.goto(play_url(server, game="nim", position="123456789 987654321 555555555"))
    wait_ready(page)
    page.get_by_label("Show hints").check()
    page.get_by_role("button", name="Explain the winning move").click()
    cells = page.locator("#explanation-content table.binary td.bits")
    expect(cells.first).to_be_visible()
    heights = page.evaluate(
        "[...document.querySelectorAll('#explanation-content table.binary tbody td')]"
        ".map((c) => c.getBoundingClientRect().height)"
    )
    assert max(heights) < 1.6 * min(heights), heights  # every cell on one line: no wrapping
    # 30 binary digits in groups of four, the whole row readable (scrolled, never cut)
    first = cells.first.inner_text()
    assert first.replace(" ", "") == format(123456789, "030b")
    assert all(len(g) <= 4 for g in first.split())
    scroll = page.locator("#explanation-content .table-scroll")
    assert scroll.evaluate(
        "(s) => s.scrollWidth <= s.clientWidth || getComputedStyle(s).overflowX === 'auto'"
    )
    # the chart's value label never covers its first point
    label = page.locator("#chart text.y-max").bounding_box()
    dot = page.locator("#chart circle").first.bounding_box()
    assert label and dot and not _boxes_overlap(label, dot), (label, dot)
    shot(page, "big-heaps")


def test_game_tree_is_legible_zoomable_and_scrollable(server: str, page: Page) -> None:
    page.goto(play_url(server, game="nim", position="3 4 5"))
    wait_turn(page)
    page.get_by_role("button", name="Game tree").click()
    svg = page.locator("#tree svg")
    expect(svg).to_be_visible()
    heights = page.evaluate(
        "[...document.querySelectorAll('#tree svg text')].map((t) => t.getBoundingClientRect().height)"
    )
    assert min(heights) >= 10, f"tree labels {min(heights):.1f}px high"
    holder = page.locator("#tree .svg-scroll")
    assert holder.evaluate("(h) => h.scrollWidth > h.clientWidth")  # 13 children: it scrolls
    holder.evaluate("(h) => { h.scrollLeft = 200; }")
    assert holder.evaluate("(h) => h.scrollLeft") > 0
    w0 = svg.bounding_box()["width"]  # type: ignore[index]
    page.get_by_role("button", name="Zoom into the game tree").click()
    assert svg.bounding_box()["width"] > 1.2 * w0  # type: ignore[index]
    page.get_by_role("button", name="Fit").click()
    assert svg.bounding_box()["width"] <= holder.bounding_box()["width"] + 1  # type: ignore[index]
    expect(page.locator("#zoom-level")).not_to_have_text("100%")
    shot(page, "tree-zoom")


def test_favicon_and_no_console_errors(server: str, page: Page) -> None:
    with urllib.request.urlopen(server + "/favicon.ico", timeout=5) as r:
        assert r.status == 200
        assert r.headers["content-type"].startswith("image/")
    problems: list[str] = []

    def console(m: playwright_api.ConsoleMessage) -> None:
        if m.type == "error":
            problems.append(m.text)

    def response(r: playwright_api.Response) -> None:
        if r.status >= 400:
            problems.append(f"{r.status} {r.url}")

    page.on("console", console)
    page.on("response", response)
    try:
        for url in (
            server,
            f"{server}/game/nim",
            play_url(server, game="nim", position="3 4 5"),
            f"{server}/api",
        ):
            page.goto(url)
            page.wait_for_load_state("load")
    finally:  # the page serves the next tests
        page.remove_listener("console", console)
        page.remove_listener("response", response)
    assert problems == []


def test_api_page_without_raw_markup_or_fixed_port(server: str, page: Page) -> None:
    page.goto(f"{server}/api")
    text = page.locator("main").inner_text()
    assert "``" not in text and "`" not in text, "raw reStructuredText markup on the page"
    assert f"curl -s -X POST {server}/api/analysis" in text
    assert "8000" not in text or ":8000" in server
    expect(page.locator("main code", has_text="size").first).to_be_visible()


def test_move_box_disabled_after_the_game_ends(server: str, page: Page) -> None:
    page.goto(play_url(server, game="nim", position="2"))
    wait_turn(page)
    expect(page.locator("#move-input")).to_be_enabled()
    page.get_by_label(re.compile("^Type your move")).fill("0")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator("#status")).to_contain_text("You win!")
    expect(page.locator("#move-input")).to_be_disabled()
    expect(page.locator("#move-submit")).to_be_disabled()
    expect(page.locator("#move-input")).to_have_attribute("placeholder", "the game is over")


def test_parameters_with_spaces_are_an_error_showing_the_syntax(server: str, page: Page) -> None:
    page.goto(f"{server}/game/subtraction")
    page.get_by_label(re.compile("^S ")).fill("1 3 4")
    page.get_by_label(re.compile("^Position")).fill("10")
    page.get_by_role("button", name="Start the game").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("write it S=1,3,4")
    expect(alert).not_to_contain_text("-p ")  # web errors speak the form's language
    page.get_by_label(re.compile("^S ")).fill("1,3,4")
    page.get_by_label(re.compile("^Position")).fill("10")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#title")).to_have_text("subtraction(S={1,3,4})")


@pytest.mark.parametrize(
    ("game", "position", "says", "never"),
    [
        ("nim", "3 4 5", "HEAP:SIZE", "coins"),
        ("turtles", "1,2 3,3", "heads", "HEAP:SIZE"),
        ("emperor", "1,2 3,3 4", "ranges", "HEAP:SIZE"),
    ],
)
def test_move_hint_fits_the_game(
    server: str, page: Page, game: str, position: str, says: str, never: str
) -> None:
    page.goto(play_url(server, game=game, position=position))
    wait_turn(page)
    expect(page.locator("#move-help")).to_contain_text(says)
    expect(page.locator("#move-help")).not_to_contain_text(never)
    page.get_by_role("button", name="Play", exact=True).click()  # empty: the same help
    expect(page.locator("#error")).to_contain_text(says)


def test_setup_says_what_the_size_of_a_random_position_is(server: str, page: Page) -> None:
    page.goto(f"{server}/game/nim")
    expect(page.locator("#size-help")).to_contain_text("largest heap")
    page.locator("#size").evaluate("(r) => { r.value = '3'; r.dispatchEvent(new Event('input')); }")
    expect(page.locator("#size-out")).to_have_text("3")
    page.locator("#position").fill("")
    page.get_by_role("button", name="Random position").click()
    expect(page.locator("#position")).not_to_have_value("")
    heaps = [int(h) for h in page.locator("#position").input_value().split()]
    assert max(heaps) <= 3


# -- the documentation site, offline and copyable (issue 24, item 5) -----------------------

DOCS_ROOT = Path(__file__).resolve().parents[1]


def test_docs_site_loads_nothing_from_the_internet() -> None:
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)  # !!python tags
    config = yaml.load((DOCS_ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    assert config["theme"]["font"] is False  # Material's default loads Google Fonts
    for key in ("extra_css", "extra_javascript"):
        for item in config.get(key, []):
            assert not re.match(r"(https?:)?//", str(item)), f"{key}: {item} is not a local file"
            assert (DOCS_ROOT / "docs" / str(item)).is_file(), item


def test_docs_copy_button_leaves_out_prompts_and_output(pages: _Pages) -> None:
    """Material copies ``innerText`` while the code has ``data-md-copying``: with the docs'
    stylesheet, prompts (``.gp``) and output (``.go``) are not part of it."""
    css = (DOCS_ROOT / "docs" / "stylesheets" / "nimlab.css").read_text(encoding="utf-8")
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonConsoleLexer

    session = ">>> import nimlab\n>>> nimlab.grundy('nim', (3, 4, 5))\n2\n>>> for h in (1, 2):\n...     print(h)\n1\n2\n"
    code = highlight(session, PythonConsoleLexer(), HtmlFormatter(nowrap=True))
    with kept_page(pages, "desktop", {"width": 1280, "height": 720}) as p:
        p.set_content(
            f"<style>{css}</style><div class='highlight'><pre><code id='c'>{code}</code></pre></div>"
        )
        copied = p.evaluate(
            "() => { const c = document.getElementById('c'); c.setAttribute('data-md-copying', '');"
            " const t = c.innerText; c.removeAttribute('data-md-copying'); return t.trimEnd(); }"
        )
        kept = [line for line in copied.splitlines() if line.strip()]  # output: blank lines
        assert kept == [
            "import nimlab",
            "nimlab.grundy('nim', (3, 4, 5))",
            "for h in (1, 2):",
            "    print(h)",
        ]
        assert ">>>" not in copied and "..." not in copied and "\n2\n" not in copied
        compile(copied, "<pasted>", "exec")  # pastes into a plain python
        assert p.locator("#c").inner_text().startswith(">>> import nimlab")  # still shown


def test_docs_circled_symbols_drawn_without_the_font(pages: _Pages) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "docs_hooks", DOCS_ROOT / "tools" / "docs_hooks.py"
    )
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    html = hooks.circled_html("<p><code>a ⓚ b</code> and 13 ① 3 = 14</p>")
    assert "ⓚ" not in html and "①" not in html
    css = (DOCS_ROOT / "docs" / "stylesheets" / "nimlab.css").read_text(encoding="utf-8")
    with kept_page(pages, "desktop", {"width": 1280, "height": 720}) as p:
        p.set_content(f"<style>{css}</style>{html}")
        circles = p.locator(".nimlab-circled")
        expect(circles).to_have_count(2)
        expect(circles.first).to_have_text("k")
        radius = circles.first.evaluate("(e) => getComputedStyle(e).borderTopLeftRadius")
        assert radius == "50%" or radius.endswith("px")
        assert p.locator("p").inner_text() == "a k b and 13 1 3 = 14"


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ({"game": "wythoff", "position": "4 6"}, "reaches the pair n = 2: (⌊2φ⌋, ⌊2φ²⌋) = (3, 5)"),
        (
            {"game": "octal", "p.code": "0.54", "position": "2 20"},
            "heap 20: 20 ≡ 6 (mod 7, from 3)",
        ),
        ({"game": "turtles", "position": "1,2 2,2 3,3"}, "1⊗2 ⊕ 2⊗2 ⊕ 3⊗3"),
        ({"game": "nimhoff", "p.k": "1", "position": "3 4"}, "3 1 4 = 3 ⊕ 4 ⊕ 0 = 7"),
    ],
)
def test_explanation_panel_shows_the_familys_reason(
    server: str, page: Page, query: dict[str, str], says: str
) -> None:
    from urllib.parse import urlencode

    page.goto(f"{server}/play?{urlencode(query)}")
    wait_turn(page)
    page.get_by_role("button", name="Explain the winning move").click()
    box = page.locator("#explanation-content")
    expect(box).to_contain_text(says)
    assert "strategy_moves" not in box.inner_text()
    # circled symbols are drawn by CSS (many fonts lack ⓚ and ①): never left to the font
    assert not re.search("[\u24da\u2460-\u2473]", box.inner_text())
    if query["game"] == "nimhoff":
        expect(box.locator("span.circled").first).to_have_text("k")


# -- the teacher's view (issue 24, item 4) -------------------------------------------------


@pytest.mark.parametrize("outcome", [pytest.param("P", marks=pytest.mark.slow), "N"])
def test_teacher_sheet_of_positions_with_answers(server: str, page: Page, outcome: str) -> None:
    import nimlab

    page.goto(f"{server}/teacher")
    page.get_by_label("Game").select_option("wythoff")
    page.get_by_label("Positions that are").select_option(outcome)
    page.get_by_label(re.compile("^Difficulty")).select_option("hard")
    page.get_by_label(re.compile("^Number of positions")).fill("6")
    page.get_by_role("button", name="Make the sheet").click()
    items = page.locator("#sheet-positions code.sheet-position")
    expect(items).to_have_count(6)
    g = nimlab.game("wythoff")
    solver = nimlab.Solver(g)  # one exhaustive search, shared by every check below
    want_p = outcome == "P"
    for text in items.all_inner_texts():
        pos = g.parse_position(text.split())
        assert solver.is_p(pos) == want_p  # chosen as asked
        assert max(pos) <= 30  # hard: heaps up to 30
    answers = page.locator("#answers li")
    expect(answers).to_have_count(6)
    first = answers.first.inner_text()
    if outcome == "N":
        move = answers.first.locator("code").nth(1).inner_text()
        assert solver.is_p(g.parse_position(move.split()))
    else:
        assert "every move loses" in first
    shot(page, f"teacher-sheet-{outcome}")
    # printed: the form and the navigation are not on the paper, the answers on a new page
    page.emulate_media(media="print")
    expect(page.locator("#teacher-form")).to_be_hidden()
    expect(page.locator("header.top")).to_be_hidden()
    assert page.locator("#answers").evaluate("(a) => getComputedStyle(a).breakBefore") == "page"
    # each answer's result id opens its statement
    page.emulate_media(media="screen")
    answers.first.locator("a.result-id").click()
    expect(page.locator("#theorem-id")).to_have_text("S18-T7")
    expect(page.locator("#statement")).to_have_text(nimlab.theorem("S18-T7").statement)


def test_result_ids_link_to_their_statements(server: str, page: Page) -> None:
    import nimlab

    page.goto(f"{server}/game/welter")
    page.get_by_role("link", name="S19-T7").click()
    expect(page.locator("#statement")).to_have_text(nimlab.theorem("S19-T7").statement)
    page.goto(play_url(server, game="nim", position="3 4 5"))
    wait_turn(page)
    page.get_by_role("button", name="Explain the winning move").click()
    page.locator("#explanation-content a.result-id").click()
    expect(page.locator("#theorem-id")).to_have_text("S19-T1")
    page.goto(f"{server}/teacher?game=nim&outcome=P&difficulty=hard&count=3")
    expect(page.locator("#sheet-positions li")).to_have_count(3)
    page.goto(f"{server}/teacher?game=nim&count=99")
    expect(page.get_by_role("alert")).to_contain_text("1 to 20 positions")
