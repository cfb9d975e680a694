"""A page's load in Chromium, cold (nothing cached) and warm (the same page again), with a
latency added to every request: what the page's script costs a first visit, now that it is
native ES modules (static/sevn/sevn.js and static/sevn/js/, no build step), each a request.

Serve the checkouts to compare (e.g. `make run PORT=8001` here and `make run PORT=8002` in
another worktree: collected, hashed, compressed, as people get them) and name each page:

    .venv/bin/python bench/page_load.py old=http://127.0.0.1:8002/en/ new=http://127.0.0.1:8001/en/

Prints the median DOMContentLoaded of `--runs` loads per side and latency, and how many scripts
the page fetched; the last line is one JSON object: {latency: {name: {cold, warm, scripts}}}.
"""

from __future__ import annotations

import argparse
import json
import statistics

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
LOADED = "JSON.stringify(performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd)"
SCRIPTS = "performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('.js')).length"


def measure(browser, url: str, latency: int, runs: int) -> dict:
    cold, warm, scripts = [], [], 0
    for _run in range(runs):
        context = browser.new_context()
        page = context.new_page()
        network = context.new_cdp_session(page)
        network.send("Network.enable")
        conditions = {"offline": False, "latency": latency, "downloadThroughput": -1, "uploadThroughput": -1}
        network.send("Network.emulateNetworkConditions", conditions)
        for loads in (cold, warm):
            page.goto(url)
            loads.append(float(page.evaluate(LOADED)))
        scripts = page.evaluate(SCRIPTS)
        context.close()
    return {"cold": round(statistics.median(cold), 1), "warm": round(statistics.median(warm), 1), "scripts": scripts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pages", nargs="+", metavar="NAME=URL")
    parser.add_argument("--latency", type=int, nargs="+", default=[0, 50, 150], help="ms added to each request")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    pages = dict(page.split("=", 1) for page in args.pages)
    figures: dict[int, dict] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        for latency in args.latency:
            for name, url in pages.items():  # the sides take turns at each latency
                found = figures.setdefault(latency, {})[name] = measure(browser, url, latency, args.runs)
                print(
                    f"latency {latency:>4} ms  {name:<8} cold {found['cold']:8.1f} ms  warm {found['warm']:8.1f} ms"
                    f"  ({found['scripts']} scripts)",
                    flush=True,
                )
        browser.close()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
