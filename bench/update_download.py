"""The centre's update download (issue 33 item 6): a bundle-sized file fetched by a sync
pass's download step from a web server on 127.0.0.1, in a child process of its own (as the
sync unit runs it): wall time, CPU time and peak memory of the transfer, then of the
sha256 check, and the same transfer resumed after a cut at half way (bytes served in all).

The sync unit allows a pass 160 MB (MemoryMax): the transfer streams in 256 kB pieces, so
its memory must not grow with the bundle's size. A lobby's network, not this loopback,
sets the pace on a kiosk; the figures here are the kiosk's own cost.

    python -m bench.update_download [--mb 400] [--no-write]

Results go to docs/benchmarks.md, section "Update download (bench/update_download.py)".
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench._report import write_section  # noqa: E402
from tests.updates.bundle_server import BundleServer, Faults  # noqa: E402

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from kiosk.updates import download
url, part, size, sha, what = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
t = time.monotonic()
ok = True
if what == "fetch":
    try:
        got = download.fetch(url, part, size=size, deadline=time.monotonic() + 3600)
    except download.DownloadError:
        ok = False
else:
    download.verify(part, sha)
wall = time.monotonic() - t
r = resource.getrusage(resource.RUSAGE_SELF)
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across fork and exec
hwm = next(int(line.split()[1]) for line in open("/proc/self/status")
           if line.startswith("VmHWM:"))
print(json.dumps({"wall": wall, "cpu": r.ru_utime + r.ru_stime, "rss_kb": hwm,
                  "ok": ok, "have": part.stat().st_size if part.exists() else 0}))
"""


def child(url: str, part: Path, size: int, sha: str, what: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, url, str(part), str(size), sha, what],
                         capture_output=True, text=True, check=True, cwd=REPO, timeout=3600)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=400, help="the bundle's size in MB")
    ap.add_argument("--no-write", action="store_true", help="print only")
    args = ap.parse_args()
    size = args.mb * 1024 * 1024
    body = os.urandom(size)
    sha = hashlib.sha256(body).hexdigest()
    server = BundleServer({"kiosk.raucb": body})
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="bench-update-") as tmp:
            part = Path(tmp) / "kiosk.raucb.part"
            fetch = child(server.url("kiosk.raucb"), part, size, sha, "fetch")
            check = child(server.url("kiosk.raucb"), part, size, sha, "verify")
            rows.append(("whole, one pass", fetch, check, server.bytes_sent))
            part.unlink(missing_ok=True)
            server.log.clear()
            server.faults = Faults(cut_after=size // 2)
            first = child(server.url("kiosk.raucb"), part, size, sha, "fetch")
            second = child(server.url("kiosk.raucb"), part, size, sha, "fetch")
            check2 = child(server.url("kiosk.raucb"), part, size, sha, "verify")
            both = {"wall": first["wall"] + second["wall"], "cpu": first["cpu"] + second["cpu"],
                    "rss_kb": max(first["rss_kb"], second["rss_kb"])}
            rows.append(("cut at half, resumed by a second pass", both, check2,
                         server.bytes_sent))
    finally:
        server.close()
    mb = size / 1024 / 1024
    lines = [
        f"{datetime.now(UTC):%Y-%m-%d}, this machine (2 cores, shared), a {mb:,.0f} MB "
        "bundle served by a web server on 127.0.0.1 (tests/updates/bundle_server.py), "
        "each step in a process of its own as the sync unit runs it; peak memory is the "
        "process's (Python and the imports included).",
        "",
        "| run | transfer | MB/s | CPU | peak memory | sha256 check | CPU | peak memory | "
        "bytes served |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, f, c, served in rows:
        lines.append(
            f"| {name} | {f['wall']:.1f} s | {mb / f['wall']:,.0f} | {f['cpu']:.1f} s | "
            f"{f['rss_kb'] / 1024:.0f} MB | {c['wall']:.1f} s | {c['cpu']:.1f} s | "
            f"{c['rss_kb'] / 1024:.0f} MB | {served / size:.2f}x the bundle |")
    lines += [
        "",
        "Memory stays that of an idle Python process whatever the bundle's size (the sync "
        "unit's MemoryMax is 160 MB). On a kiosk the lobby's network sets the transfer's "
        "pace: at 10 Mbit/s a 400 MB bundle takes about 5½ minutes, two passes of the "
        "default 4 minutes (`[updates] download_minutes`). The sha256 check reads the file "
        "once more; this machine hashes with SHA instructions, a Pi 4's Cortex-A72 has none, "
        "so there it is the larger share of the check (not measured on a Pi)."]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        write_section("Update download (bench/update_download.py)", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
