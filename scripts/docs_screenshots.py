"""Screenshots of every family's explanation in the playground, for the docs site.

Run from the repository root (Debian's Chromium and Playwright, nothing downloaded)::

    python scripts/docs_screenshots.py

It serves the playground on a free loopback port, opens each family's sample N-position,
asks "Explain the winning move" and saves the explanation at desktop (1280 px) and phone
(390 px) widths as small palette PNGs in ``docs/images/explain/``, committed with the
docs: drawing them at ``mkdocs build`` time would need a browser in every docs build.
``docs/explanations.md`` shows them; ``SAMPLES`` below is its list.
"""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "images" / "explain"
CHROMIUM = os.environ.get("NIMLAB_CHROMIUM", "/usr/bin/chromium")

#: (slug, game, parameters, position): one sample N-position per family
SAMPLES: list[tuple[str, str, dict[str, str], str]] = [
    ("nim", "nim", {}, "3 4 5"),
    ("moore", "moore", {"k": "2"}, "3 4 5 9"),
    ("wythoff", "wythoff", {}, "4 6"),
    ("turtles", "turning-turtles", {}, "1,2 2,2 3,3"),
    ("subtraction", "subtraction", {"S": "1,3,4"}, "10"),
    ("allbut", "allbut", {"S": "2"}, "9"),
    ("octal", "octal", {"code": "0.54"}, "2 20"),
    ("welter", "welter", {}, "1 2 4"),
    ("lim", "lim", {}, "3 5 6"),
    ("nimhoff", "nimhoff", {"k": "1"}, "3 4"),
    ("delete-nim", "delete-nim", {}, "3 5"),
    ("single-delete", "single-delete", {}, "3 5 6"),
    ("abo-delete", "abo-delete", {}, "7 1 12"),
    ("ryuo", "ryuo", {"p": "3"}, "4 7"),
    ("restricted-ryuo", "restricted-ryuo", {"p": "3", "q": "6"}, "4 7"),
    ("rgames", "rgames", {"g0": "subtraction:1,2,3", "parts": "allbut:8;allbut:4,8"}, "5 6"),
    ("circular", "circular", {"k": "4"}, "1 2 3 1 2 4"),
    ("emperor", "emperor", {}, "1,2 3,3 4"),
]
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _small_png(data: bytes) -> bytes:
    """The screenshot as a 64-colour palette PNG (a few tens of kB)."""
    from PIL import Image

    img = Image.open(io.BytesIO(data)).convert("RGB")
    out = io.BytesIO()
    img.quantize(colors=64, method=Image.Quantize.MEDIANCUT).save(out, "PNG", optimize=True)
    return out.getvalue()


def main() -> int:
    from playwright.sync_api import sync_playwright

    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "nimlab", "serve", "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(url + "/api/games", timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        OUT.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox"]
            )
            for size, (w, h) in SIZES.items():
                ctx = browser.new_context(
                    viewport={"width": w, "height": h}, is_mobile=size == "phone"
                )
                page = ctx.new_page()
                page.set_default_timeout(30_000)
                for slug, game, params, position in SAMPLES:
                    query = {"game": game, "position": position}
                    query.update({f"p.{k}": v for k, v in params.items()})
                    page.goto(f"{url}/play?{urlencode(query)}")
                    page.wait_for_function(
                        "document.getElementById('status').textContent.startsWith('Your move')"
                    )
                    page.locator("#explain").click()
                    box = page.locator("#explanation-content")
                    box.wait_for()
                    path = OUT / f"{slug}-{size}.png"
                    path.write_bytes(_small_png(box.screenshot()))
                    print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")
                ctx.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
