#!/usr/bin/env python
"""Draw the site's icons (static/img/*.png, for phones' home screens and the web app manifest)
from static/img/icon.svg with the Chromium the browser tests use. Run after changing the SVG:
.venv/bin/python scripts/make_icons.py"""

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

IMG = Path(__file__).resolve().parent.parent / "static" / "img"


def main() -> None:
    svg = (IMG / "icon.svg").read_text()
    # iOS rounds the corners itself and paints transparent ones black: its icon is a full square.
    square = svg.replace("rx='96' ", "")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for size, name, source in ((192, "icon-192.png", svg), (512, "icon-512.png", svg),
                                   (180, "apple-touch-icon.png", square)):
            page = browser.new_page(viewport={"width": size, "height": size})
            data = base64.b64encode(source.encode()).decode()
            page.set_content(f"<body style='margin:0'><img src='data:image/svg+xml;base64,{data}' "
                             f"width='{size}' height='{size}' style='display:block'></body>")
            page.wait_for_timeout(200)
            page.screenshot(path=str(IMG / name), omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
