"""Touch-table figures: start-up time, memory after 50 deals, CPU per frame while dragging.

    python bench/app.py [--runs 3] [--no-write]

Each figure is measured in a fresh child process (headless, SDL offscreen, Mesa llvmpipe on
a machine without a GPU) beside the same figure for a bare Kivy window showing one label,
measured in the same run, so the app's own cost can be told from Kivy's. Figures are of
this machine only: compare them with earlier runs of the same machine, not across machines.

Both sides run with compiled bytecode, as on the Pi (the image's pip compiles every module):
the children get a bytecode cache of their own (``PYTHONPYCACHEPREFIX``) and one unmeasured
warm-up run each, so an environment with ``PYTHONDONTWRITEBYTECODE`` does not charge the app
for compiling its sources while Kivy's come precompiled.

A frame's CPU is split into the main thread's (``time.thread_time``: the Python work of the
frame, layout, widget updates and the GL calls made from Python) and the other threads'
(Mesa's rasteriser here, the GPU on a Pi).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DRAG_FRAMES = 200
#: deals of the memory figure, each of the next game of the picker's list (then round again)
MEMORY_DEALS = 50
#: the main thread's budget for one frame (60 frames a second) and the Python-work target
FRAME_BUDGET_MS = 16.0
PYTHON_TARGET_MS = 3.0


def _since_process_start() -> float:
    """Seconds since this process was started (from /proc, so imports are included)."""
    ticks = os.sysconf("SC_CLK_TCK")
    start = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19]) / ticks
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return uptime - start


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _fifty_deals(app, frames) -> list[str]:
    """The memory figure's visits: ``MEMORY_DEALS`` deals, each of another game of the
    picker (in its order, round again after the last), a few moves played on each."""
    ids = app.game_ids()
    played = []
    for k in range(MEMORY_DEALS):
        game_id = ids[k % len(ids)]
        ctl = app.open_game(game_id, 1000 + k)
        played.append(game_id)
        frames(2)
        if app.sm.current == "table":
            for m in ctl.game.legal_moves()[:3]:  # a little play on each deal
                if ctl.play(m, "bench") is None:  # the view redraws from the controller
                    frames(1)
    app.go_welcome()
    frames(3)
    return played


def _texture_mb() -> float:
    """The pixels of every Kivy texture alive (software GL keeps them in this process); a
    region shares its texture's pixels and is not counted again."""
    from kivy.graphics.texture import Texture, TextureRegion

    total = sum(t.width * t.height * 4 for t in gc.get_objects()  # type(): no weak proxies
                if issubclass(type(t), Texture) and not issubclass(type(t), TextureRegion))
    return total / 1e6


def _count_font_faces() -> dict[str, None]:
    """The (size, font, bold) faces Kivy's text provider is asked for, from now on: the
    faces the process holds (kiosk/screens/font_faces.py)."""
    from kiosk.screens.font_faces import watch_font_faces

    return watch_font_faces()[0]


def _face_cost() -> dict[str, float]:
    """The resident memory one more face of each font adds, in a process of its own (in the
    split's process the faces would take the memory tracemalloc frees): 8 faces of each at
    sizes the app never asks for (281-288 px), after one face of each opened first."""
    from kivy.core.text import Label as CoreLabel

    from kiosk.platform.boot import FONT_BOLD, FONT_REGULAR

    cost = {}
    for font, bold in ((FONT_REGULAR, False), (FONT_BOLD, True)):
        CoreLabel(font_size=280.0, font_name=str(font), bold=bold).get_extents("Ag")
        gc.collect()
        before = _rss_mb()
        for px in range(281, 289):
            CoreLabel(font_size=float(px), font_name=str(font), bold=bold).get_extents("Ag")
        gc.collect()
        cost["bold_mb" if bold else "regular_mb"] = (_rss_mb() - before) / 8
    return cost


def _faces_mb(faces: list[str], cost: dict[str, float]) -> float:
    """The faces held (the first 64 asked for: Kivy's cache holds no more) times their cost."""
    held = faces[:64]
    bold = sum(1 for f in held if "Bold" in f.split("|")[1])
    return bold * cost["bold_mb"] + (len(held) - bold) * cost["regular_mb"]


class _FrameClock:
    """The main thread's CPU in one frame, split where the window starts drawing: before,
    the Python work (input, clock callbacks, layout, canvas updates); after, the drawing
    (Kivy's canvas walk and the GL driver: Mesa's vertex work here, a GPU driver on a Pi)."""

    def __init__(self, window) -> None:
        self.draw_at: float | None = None
        self.python: list[float] = []
        self.drawing: list[float] = []
        window.bind(on_draw=self._drawing)

    def _drawing(self, *_a) -> None:  # returns None: the window's own drawing still runs
        if self.draw_at is None:
            self.draw_at = time.thread_time()

    def frame(self, work) -> None:
        self.draw_at = None
        t0 = time.thread_time()
        work()
        t1 = time.thread_time()
        at = t1 if self.draw_at is None else self.draw_at
        self.python.append((at - t0) * 1000)
        self.drawing.append((t1 - at) * 1000)

    def figures(self) -> dict[str, float]:
        main = [a + b for a, b in zip(self.python, self.drawing, strict=True)]
        return {"main_ms": statistics.mean(main), "main_max_ms": max(main),
                "python_ms": statistics.mean(self.python), "python_max_ms": max(self.python),
                "draw_ms": statistics.mean(self.drawing), "frames": len(main)}


def child(mode: str) -> None:
    """Runs in the measured process; prints one JSON line."""
    if mode == "memory-split":
        import tracemalloc

        tracemalloc.start()
    from kiosk.platform import boot

    boot.configure(boot.Screen(800, 480, headless=True), quiet=True)
    if mode == "face-cost":
        print(json.dumps(_face_cost()))
        return
    faces = _count_font_faces() if mode == "memory-split" else {}
    from kivy.base import EventLoop, runTouchApp
    from kivy.clock import Clock
    from kivy.core.window import Window

    out: dict[str, float] = {}
    if mode.endswith("bare"):
        from kivy.app import App
        from kivy.uix.label import Label

        class Bare(App):
            def build(self):
                return Label(text="Hello")

        app = Bare()
    else:
        from kiosk.app import KioskApp

        app = KioskApp(language="en", transitions=False, animate=False, autoplay=False)

    if mode.startswith("startup"):
        def first_frame(*_a) -> None:
            Window.unbind(on_flip=first_frame)
            out["seconds"] = _since_process_start()
            out["cpu_s"] = time.process_time()
            app.stop()

        Clock.schedule_once(lambda _dt: (Window.bind(on_flip=first_frame),
                                         Window.canvas.ask_update()), 0)
        app.run()
        print(json.dumps(out))
        return

    app._run_prepare()
    runTouchApp(embedded=True)

    def frames(n: int) -> None:
        for _ in range(n):
            EventLoop.idle()

    frames(3)
    if mode == "memory-app":
        _fifty_deals(app, frames)
        gc.collect()
        out["rss_mb"] = _rss_mb()
    elif mode == "memory-split":
        import tracemalloc

        heap_start = tracemalloc.get_traced_memory()[0]
        out["faces_at_first_frame"] = len(faces)
        played = _fifty_deals(app, frames)
        gc.collect()
        out["heap_mb"] = tracemalloc.get_traced_memory()[0] / 1e6
        out["heap_at_first_frame_mb"] = heap_start / 1e6
        out["texture_mb"] = _texture_mb()
        out["font_faces"] = len(faces)
        out["games"] = len(set(played))
        snap = tracemalloc.take_snapshot()
        top = snap.statistics("filename")[:6]
        out["heap_top"] = [f"{s.traceback[0].filename.split('site-packages/')[-1]}: "
                           f"{s.size / 1e6:.1f} MB" for s in top]
        out["rss_mb"] = _rss_mb()
        out["faces"] = list(faces)
    elif mode in ("memory-bare", "memory-bare-split"):
        frames(20)
        out["rss_mb"] = _rss_mb()
    elif mode == "drag-bare":  # the cost of one full frame of an almost empty window
        frames(3)
        t0, c0 = time.perf_counter(), time.process_time()
        clock = _FrameClock(Window)
        for _ in range(DRAG_FRAMES):
            Window.canvas.ask_update()
            clock.frame(EventLoop.idle)
        out["cpu_ms"] = (time.process_time() - c0) * 1000 / DRAG_FRAMES
        out["wall_ms"] = (time.perf_counter() - t0) * 1000 / DRAG_FRAMES
        out.update(clock.figures())
    elif mode == "drag-app":
        from kivy.tests.common import UnitTestTouch

        import games
        from games.engine import cards as C

        g = games.new("klondike", 1)
        for i in range(len(g.cards)):
            g.cards[i], g.down[i] = [], 0
        run = [C.card(13 - k, (C.SPADES, C.HEARTS)[k % 2]) for k in range(12)]
        g.cards[g.index["T1"]] = run
        rest = [c for c in range(52) if c not in run]
        g.cards[g.index["S"]], g.down[g.index["S"]] = rest, len(rest)
        app.open_position(g)
        frames(3)
        view = app.table.view
        r = view.geometry().card_rects(g.index["T1"], 12, 0)[0]
        x0, y0 = r.x + r.w / 2, r.top - 5
        touch = UnitTestTouch(x0, y0)
        touch.touch_down()
        frames(1)
        touch.touch_move(x0 + 30, y0 - 10)
        frames(1)
        assert len(view._drag) == 12, "the run did not lift"
        t0, c0 = time.perf_counter(), time.process_time()
        clock = _FrameClock(Window)
        for k in range(DRAG_FRAMES):
            def frame(k=k) -> None:
                touch.touch_move(x0 + 30 + (k % 100) * 3, y0 - 10 - (k % 50))
                Window.canvas.ask_update()
                EventLoop.idle()
            clock.frame(frame)
        out["cpu_ms"] = (time.process_time() - c0) * 1000 / DRAG_FRAMES
        out["wall_ms"] = (time.perf_counter() - t0) * 1000 / DRAG_FRAMES
        out.update(clock.figures())
        touch.touch_up()
    elif mode == "animate-app":  # frames while cards fly (moves, new deals) on the table
        app.animate = True
        ctl = app.open_game("klondike", 7)
        frames(3)
        view = app.table.view
        view.animate = True
        clock = _FrameClock(Window)
        for _deal in range(6):
            for m in ctl.game.legal_moves()[:4]:
                ctl.play(m, "bench")
                for _ in range(18):  # the flight (MOVE_TIME) and a little after
                    clock.frame(EventLoop.idle)
                    time.sleep(0.01)
            ctl.new_deal(source="bench")
            for _ in range(18):
                clock.frame(EventLoop.idle)
                time.sleep(0.01)
        out.update(clock.figures())
    print(json.dumps(out))


def _child_env() -> dict[str, str]:
    """Compiled bytecode for both sides (see the module docstring), in a cache of the bench's."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "solitaire-kiosk-bench-pyc")
    return env


def _run_child(mode: str) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", mode], capture_output=True,
                          text=True, timeout=600, cwd=ROOT, env=_child_env())
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not line:
        raise SystemExit(f"{mode} failed:\n{proc.stderr[-3000:]}")
    return json.loads(line[-1])


def measure(mode: str, runs: int) -> dict[str, float]:
    """The median of ``runs`` fresh processes (numbers only; other values of the first)."""
    results = [_run_child(mode) for _ in range(runs)]
    return {k: statistics.median(r[k] for r in results)
            if isinstance(results[0][k], (int, float)) else results[0][k] for k in results[0]}


def _pair(app_mode: str, bare_mode: str, runs: int) -> tuple[dict, dict]:
    """The app's and the bare window's figure, run alternately so that a change of the
    machine's load falls on both."""
    apps, bares = [], []
    for _ in range(runs):
        apps.append(_run_child(app_mode))
        bares.append(_run_child(bare_mode))

    def median(results: list[dict]) -> dict:
        return {k: statistics.median(r[k] for r in results) for k in results[0]}

    return median(apps), median(bares)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child)
        return 0
    for mode in ("startup-app", "startup-bare"):  # bytecode compiled, caches warm
        _run_child(mode)
    start_app, start_bare = _pair("startup-app", "startup-bare", args.runs)
    mem_app, mem_bare = _pair("memory-app", "memory-bare", args.runs)
    split = _run_child("memory-split")
    face_cost = _run_child("face-cost")
    split["faces_mb"] = _faces_mb(split["faces"], face_cost)
    drag, frame_bare = _pair("drag-app", "drag-bare", args.runs)
    anim = measure("animate-app", args.runs)

    def ratio(a: float, b: float) -> str:
        return f"{a / b:.2f}x" if b else "-"

    body = "\n".join([
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, SDL offscreen (software GL); median of {args.runs} "
        "fresh processes each, the app's and the bare window's run in turn, compiled "
        f"bytecode on both sides; load average {os.getloadavg()[0]:.1f} at the end. "
        "Regenerate with `python bench/app.py`.",
        "",
        "| figure | kiosk app | bare Kivy window | ratio | target |",
        "|---|---|---|---|---|",
        f"| process start to first frame (wall) | {start_app['seconds']:.2f} s "
        f"| {start_bare['seconds']:.2f} s | {ratio(start_app['seconds'], start_bare['seconds'])}"
        " | 1.5x |",
        f"| CPU to the first frame (all threads) | {start_app['cpu_s']:.2f} s "
        f"| {start_bare['cpu_s']:.2f} s | {ratio(start_app['cpu_s'], start_bare['cpu_s'])} | |",
        f"| resident memory (app: after {MEMORY_DEALS} deals of {split['games']} games) "
        f"| {mem_app['rss_mb']:.0f} MB | {mem_bare['rss_mb']:.0f} MB "
        f"| {ratio(mem_app['rss_mb'], mem_bare['rss_mb'])} | 1.3x |",
        f"| CPU per frame, dragging a 12-card run (bare: one redrawn frame), all threads "
        f"| {drag['cpu_ms']:.1f} ms (wall {drag['wall_ms']:.1f} ms) "
        f"| {frame_bare['cpu_ms']:.1f} ms (wall {frame_bare['wall_ms']:.1f} ms) | | |",
        f"| main thread per frame, dragging: Python work (mean / worst) "
        f"| {drag['python_ms']:.2f} / {drag['python_max_ms']:.2f} ms "
        f"| {frame_bare['python_ms']:.2f} / {frame_bare['python_max_ms']:.2f} ms | "
        f"| {PYTHON_TARGET_MS:g} ms / {FRAME_BUDGET_MS:g} ms |",
        f"| main thread per frame, dragging: drawing (GL calls; mean) | {drag['draw_ms']:.1f} ms "
        f"| {frame_bare['draw_ms']:.1f} ms | | |",
        f"| main thread per frame, cards flying: Python work (mean / worst of "
        f"{anim['frames']:.0f}) | {anim['python_ms']:.2f} / {anim['python_max_ms']:.2f} ms "
        f"| | | worst {FRAME_BUDGET_MS:g} ms |",
        f"| main thread per frame, cards flying: drawing (mean) | {anim['draw_ms']:.1f} ms "
        "| | | |",
        "",
        f"Memory split (one run with tracemalloc, which adds its own overhead: "
        f"{split['rss_mb']:.0f} MB resident): Python heap {split['heap_mb']:.1f} MB after the "
        f"deals ({split['heap_at_first_frame_mb']:.1f} MB at the first frame); textures alive "
        f"{split['texture_mb']:.1f} MB (width x height x 4 of every live texture: llvmpipe "
        "keeps its copy in this process, so it is in the resident figure here; a Pi's GPU "
        "memory is not in its RSS); "
        f"fonts {split['faces_mb']:.1f} MB: {split['font_faces']:.0f} font faces (size, "
        f"font, bold) asked for by the end ({split['faces_at_first_frame']:.0f} by the first "
        "frame), each an SDL_ttf face Kivy keeps open (up to 64), at "
        f"{face_cost['regular_mb']:.2f} MB a face of the regular font and "
        f"{face_cost['bold_mb']:.2f} MB of the bold one (8 more faces of each opened in a "
        "process of their own); the rest (window, software GL, shared libraries, allocator "
        "slack) is what the bare window measures plus the libraries the app adds. Largest "
        "heap files: " + "; ".join(split["heap_top"]) + ".",
        "",
        "The first frame of the app is its welcome screen, ready for a touch. The drag figure "
        f"is {DRAG_FRAMES} touch moves, each followed by one full frame (layout, drawing); "
        "the all-threads CPU includes Mesa's software rasteriser threads, which a Pi's GPU "
        "takes over. The main thread's time is split where the window starts drawing: "
        "before, the Python work (touch, clock callbacks, layout, canvas updates); after, "
        "the drawing (Kivy's canvas walk and the GL driver on the main thread). The flying-cards figure is 24 animated moves and 6 animated new deals "
        "of Klondike, 18 frames each. Notes on the targets: the next section.",
    ])
    print(body)
    if not args.no_write:
        from bench._report import write_section

        write_section("Touch table (bench/app.py)", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
