"""Page weight: bytes a browser downloads on the first load of the tablet and a phone page.

    .venv/bin/python bench/pages.py            (a few seconds)

Starts `coup-referee serve` on 127.0.0.1, sets up a 6-player table the way the pages do, and
loads four pages as a browser with an empty cache would: the tablet and a phone in the lobby
(where the first load happens) and again during a game (a reload). For each, the HTML and
everything it links (stylesheets, scripts: app.js, the vendored htmx and its SSE extension;
images: the tablet's QR code of the spectators' view) is fetched with `Accept-Encoding: gzip`
(or --accept-encoding). It prints, per resource, the bytes
on the wire as served (after the server's compression, if any), the raw size, and what gzip -6
of the raw bytes would be, plus the Content-Encoding and Cache-Control the server sent.

Goals: phone page <= 40 KB and tablet page <= 60 KB, first load, compressed.
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import Server, StealPlan  # noqa: E402
from bench.devices import Browser, create_table, expect, version_of  # noqa: E402

LINKED = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*\shref)="(/static/[^"]+)"'
                    r'|<img[^>]*\ssrc="(/[^"]+)"')
GOALS_KB = {"tablet": 60, "phone": 40}
ACCEPT_ENCODING = "gzip"


@dataclass
class Resource:
    path: str
    wire: int  # body bytes as served
    raw: int  # body bytes once decoded
    gzipped: int  # gzip -6 of the raw body
    headers: int  # bytes of the response head
    encoding: str
    cache: str


def decode(body: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "deflate":
        return zlib.decompress(body)
    if encoding == "br":
        import brotli  # installed with flask-compress

        return bytes(brotli.decompress(body))
    if encoding == "zstd":
        from backports import zstd  # installed with flask-compress (Python < 3.14)

        return bytes(zstd.decompress(body))
    if encoding:
        raise RuntimeError(f"unknown Content-Encoding {encoding}")
    return body


def fetch(browser: Browser, path: str) -> Resource:
    reply = expect(browser.get(path), 200, path)
    encoding = reply.headers.get("content-encoding", "")
    raw = decode(reply.body, encoding)
    head = len("HTTP/1.1 200 OK\r\n\r\n") + sum(len(k) + len(v) + 4
                                                for k, v in reply.headers.items())
    return Resource(path, len(reply.body), len(raw), len(gzip.compress(raw, 6)), head,
                    encoding or "none", reply.headers.get("cache-control", "-"))


def first_load(port: int, cookies: dict[str, str], path: str) -> list[Resource]:
    """The page and what it links, as a browser with an empty cache fetches them."""
    browser = Browser(port, accept_encoding=ACCEPT_ENCODING)
    browser.cookies.update(cookies)
    page = fetch(browser, path)
    html = browser.get(path)  # again, for its text to find the links
    text = decode(html.body, html.headers.get("content-encoding", ""))
    links = list(dict.fromkeys(a or b for a, b in LINKED.findall(text.decode())))
    resources = [page, *(fetch(browser, link) for link in links)]
    browser.close()
    return resources


def report(title: str, goal_kb: int, resources: list[Resource]) -> dict[str, int]:
    print(f"\n{title}")
    print(f"  {'resource':<34}{'on the wire':>12}{'raw':>9}{'gzip -6':>9}  encoding  "
          "cache-control")
    for r in resources:
        name = r.path if len(r.path) <= 33 else "..." + r.path[-30:]
        print(f"  {name:<34}{r.wire:>12,}{r.raw:>9,}{r.gzipped:>9,}  {r.encoding:<9} {r.cache}")
    wire = sum(r.wire + r.headers for r in resources)
    gz = sum(r.gzipped + r.headers for r in resources)
    raw = sum(r.raw + r.headers for r in resources)
    print(f"  total with response heads: {wire / 1000:.1f} KB as served; {raw / 1000:.1f} KB raw; "
          f"{gz / 1000:.1f} KB if everything were gzipped; goal <= {goal_kb} KB "
          f"-> {'met' if wire <= goal_kb * 1000 else 'missed'} as served")
    return {"wire": wire, "gzip": gz, "raw": raw}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=60, help="steps played before the reload")
    parser.add_argument("--accept-encoding", default="gzip",
                        help='what the browser offers, e.g. "gzip, deflate, br, zstd" (Chrome)')
    args = parser.parse_args(argv)
    global ACCEPT_ENCODING
    ACCEPT_ENCODING = args.accept_encoding
    with Server() as server:
        table = create_table(server.port, start=False)
        tablet = f"/t/{table.id}"
        name, token, phone_cookies = table.seats[0]
        results = {
            "tablet, lobby (6 seat QR codes)": report(
                "Tablet, first load in the lobby (6 seat QR codes)", GOALS_KB["tablet"],
                first_load(server.port, table.tablet_cookies, tablet)),
            "phone, lobby": report(
                f"Phone ({name}), first load in the lobby", GOALS_KB["phone"],
                first_load(server.port, phone_cookies, f"/s/{token}")),
        }
        referee = Browser(server.port)
        referee.cookies.update(table.tablet_cookies)
        reply = expect(referee.post(f"{tablet}/start", {"csrf": table.csrf,
                                                        "version": str(table.version)}),
                       200, "start")
        version, plan = version_of(reply.body), StealPlan()
        for _ in range(args.steps):
            reply = expect(referee.post(f"{tablet}/step", {"csrf": table.csrf,
                                                           "version": str(version),
                                                           **plan.next()}), 200, "step")
            version = version_of(reply.body)
        results[f"tablet, game ({args.steps} steps)"] = report(
            f"Tablet, reload during a game after {args.steps} steps", GOALS_KB["tablet"],
            first_load(server.port, table.tablet_cookies, tablet))
        results[f"phone, game ({args.steps} steps)"] = report(
            f"Phone ({name}), reload during a game after {args.steps} steps",
            GOALS_KB["phone"], first_load(server.port, phone_cookies, f"/s/{token}"))
    print(f"\n{'page':<34}{'as served KB':>13}{'gzip KB':>9}{'raw KB':>8}")
    for title, r in results.items():
        print(f"{title:<34}{r['wire'] / 1000:>13.1f}{r['gzip'] / 1000:>9.1f}"
              f"{r['raw'] / 1000:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
