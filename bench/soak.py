"""Soak: the real app in attract mode for a long time, its resident memory sampled.

    nice python bench/soak.py --minutes 30 [--every 60] [--label after] [--no-write]

A kiosk runs for months with nobody watching, most of it in attract mode (a demo game after
another), so memory that grows a little with each demo game kills a Pi overnight. This
starts the app as ``kiosk run`` builds it (configuration file, play log, lobby timers) in a
child process, headless (SDL offscreen, Mesa llvmpipe here), with ``[attract] delay = 10``,
and reads the child's VmRSS from /proc every ``--every`` seconds. The child reports each
demo game it starts and the sizes of the app's caches (:func:`kiosk.table.caches.sizes`), so a
growing curve can be matched to what grew.

The result goes to the "Soak: attract mode memory" section of docs/benchmarks.md: the curve,
and the growth per hour after the first 5 minutes (a least-squares slope over the samples
after warm-up: the caches fill during the first demo games). ``--label`` names the run in
that section, so a run of older code can be kept beside it (``--keep``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TITLE = "Soak: attract mode memory"
WARM_UP_MINUTES = 5.0
#: the target of issue 12: growth after warm-up, in MB per hour of attract mode
TARGET_MB_PER_HOUR = 5.0

CONFIG = """
name = "Soak"
idle_timeout = 86400

[attract]
enabled = true
delay = 10

[log]
data_dir = "{data}"
"""


def rss_mb(pid: int) -> float | None:
    """Resident memory of ``pid`` in MB (None once it is gone)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


def growth_per_hour(samples: list[tuple[float, float]], after_min: float) -> float | None:
    """Least-squares slope in MB per hour of the (minute, MB) samples after ``after_min``."""
    pts = [(t, m) for t, m in samples if t >= after_min]
    if len(pts) < 2:
        return None
    n = len(pts)
    mt = sum(t for t, _ in pts) / n
    mm = sum(m for _, m in pts) / n
    var = sum((t - mt) ** 2 for t, _ in pts)
    if var == 0:
        return None
    slope = sum((t - mt) * (m - mm) for t, m in pts) / var  # MB per minute
    return slope * 60


# ---------------------------------------------------------------------- the child
def _count_font_faces() -> dict[str, None]:
    """The (font, size, style) faces Kivy's text provider is asked for, from now on:
    whether Kivy's face cache still fills (a new id) or only reuses what it has
    (kiosk/screens/font_faces.py)."""
    from kiosk.screens.font_faces import watch_font_faces

    return watch_font_faces()[0]


def child(config_path: str, report_every: float) -> None:
    """The measured process: the app of ``kiosk run`` with its welcome screen's attract
    timer; prints ``GAME``/``CACHES`` lines for the parent."""
    from kiosk.platform import boot

    boot.configure(boot.Screen(800, 480, headless=True), quiet=True)
    from kivy.clock import Clock

    from kiosk.app import KioskApp
    from kiosk.platform import heap
    from kiosk.settings import config
    from kiosk.table import caches

    faces = _count_font_faces()
    cfg = config.load(Path(config_path))
    app = KioskApp(cfg=cfg, services=True, data_dir=cfg.data_dir())
    shown = {"n": 0, "ctl": None}

    def watch(_dt: float) -> None:
        demo = app.attract
        if demo.ctl is not None and demo.ctl is not shown["ctl"]:
            shown["ctl"] = demo.ctl
            shown["n"] += 1
            print(f"GAME {shown['n']} {demo.ctl.game_id}", flush=True)

    def report(_dt: float) -> None:
        sizes = caches.sizes()
        sizes["font_faces"] = len(faces)
        sizes["python_blocks"] = sys.getallocatedblocks()
        in_use = heap.in_use_mb()
        if in_use is not None:
            sizes["heap_in_use_mb"] = round(in_use, 1)
        print("CACHES " + json.dumps(sizes), flush=True)

    def stop(_signum, _frame) -> None:
        Clock.schedule_once(lambda _dt: app.stop(), 0)

    signal.signal(signal.SIGTERM, stop)
    Clock.schedule_interval(watch, 1.0)
    Clock.schedule_interval(report, report_every)
    app.run()


# ---------------------------------------------------------------------- the parent
def run(minutes: float, every: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        cfg = Path(tmp) / "config.toml"
        cfg.write_text(CONFIG.format(data=Path(tmp) / "data"), encoding="utf-8")
        env = dict(os.environ, SOLITAIRE_KIOSK_CONFIG=str(cfg))
        proc = subprocess.Popen([sys.executable, __file__, "--child", str(cfg),
                                 "--every", str(every)], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, cwd=ROOT, env=env)
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(ln) for ln in proc.stdout],
                         daemon=True).start()
        start = time.monotonic()
        samples: list[tuple[float, float]] = []
        #: each sample with the child's last report: heap in use, font faces, games shown
        rows: list[tuple] = []
        games: list[str] = []
        caches: dict = {}
        next_sample = start + every  # the first sample once the app is up
        try:
            while True:
                now = time.monotonic()
                if now >= next_sample:
                    mb = rss_mb(proc.pid)
                    if mb is None or proc.poll() is not None:
                        raise SystemExit(f"the app ended after {(now - start) / 60:.1f} "
                                         f"minutes (status {proc.poll()})")
                    t = (now - start) / 60
                    samples.append((t, mb))
                    rows.append((t, mb, caches.get("heap_in_use_mb"),
                                 caches.get("font_faces"), len(games)))
                    print(f"{t:6.1f} min  {mb:7.1f} MB  {len(games)} demo games "
                          f"({games[-1] if games else '-'})  {caches}",
                          flush=True)
                    next_sample += every
                    if t >= minutes - 1e-6:
                        break
                while not lines.empty():
                    line = lines.get()
                    if line.startswith("GAME "):
                        games.append(line.split()[2])
                    elif line.startswith("CACHES "):
                        caches = json.loads(line[7:])
                time.sleep(0.5)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    return {"samples": samples, "rows": rows, "games": games, "caches": caches}


def describe(label: str, result: dict, every: float) -> str:
    samples = result["samples"]
    slope = growth_per_hour(samples, WARM_UP_MINUTES)
    first, last = samples[0][1], samples[-1][1]
    peak = max(m for _, m in samples)
    games = result["games"]
    verdict = "no figure (too short)" if slope is None else (
        f"**{slope:+.1f} MB per hour** after the first {WARM_UP_MINUTES:g} minutes "
        f"(target: under {TARGET_MB_PER_HOUR:g}; "
        f"{'met' if abs(slope) < TARGET_MB_PER_HOUR else 'missed'})")
    lines = [
        f"### {label}",
        "",
        f"{samples[-1][0]:.0f} minutes, {len(games)} demo games of {len(set(games))} "
        f"different games, RSS every {every:g} s: {first:.0f} MB at start, {last:.0f} MB "
        f"at the end, {peak:.0f} MB at most; {verdict}.",
        "",
        "| minute | RSS (MB) | C heap in use (MB) | font faces asked for | demo games |",
        "|---|---|---|---|---|",
    ]
    digits = 0 if every >= 60 else 1
    rows = result.get("rows") or [(t, m, None, None, "") for t, m in samples]
    lines += [f"| {t:.{digits}f} | {m:.0f} | {'' if h is None else f'{h:.0f}'} | "
              f"{'' if f is None else f} | {n} |" for t, m, h, f, n in rows]
    if result["caches"]:
        sizes = ", ".join(f"{k} {v}" for k, v in result["caches"].items())
        lines += ["", f"Cache sizes at the end: {sizes}."]
    return "\n".join(lines)


def _kept_runs(keep: list[str]) -> list[str]:
    """The ``### label`` subsections of the current section to keep beside the new run."""
    from bench._report import DOC

    if not DOC.exists() or not keep:
        return []
    text = DOC.read_text(encoding="utf-8")
    head = f"## {TITLE}\n"
    if head not in text:
        return []
    section = text.split(head, 1)[1].split("\n## ", 1)[0]
    parts = section.split("\n### ")[1:]
    return ["### " + p.strip() for p in parts if p.split("\n", 1)[0].strip() in keep]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="how long (default 30)")
    ap.add_argument("--every", type=float, default=60.0, help="seconds between samples")
    ap.add_argument("--label", default="current code", help="the run's name in the doc")
    ap.add_argument("--keep", action="append", default=[],
                    help="keep this earlier run's subsection (its label) in the doc")
    ap.add_argument("--no-write", action="store_true", help="print only")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if not (args.minutes > 0 and args.every > 0):
        print("soak: --minutes and --every must be positive numbers", file=sys.stderr)
        return 2
    if args.child:
        child(args.child, args.every)
        return 0
    # a SIGTERM ends the run like Ctrl+C: the child is stopped too (the finally in run())
    signal.signal(signal.SIGTERM, lambda *_a: sys.exit(1))
    result = run(args.minutes, args.every)
    run_text = describe(args.label, result, args.every)
    body = "\n\n".join([
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, SDL offscreen (Mesa llvmpipe), 800x480, "
        "`[attract] delay = 10`, the app of `kiosk run` (play log on). Regenerate with "
        "`nice python bench/soak.py --minutes 130` (one rotation of the 42 solitaires "
        "takes about an hour; two show the second's first showings). Growth is the "
        "least-squares slope of "
        f"the samples after minute {WARM_UP_MINUTES:g}.",
        run_text, *_kept_runs([k for k in args.keep if k != args.label])])
    print(body)
    if not args.no_write:
        from bench._report import write_section

        write_section(TITLE, body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
