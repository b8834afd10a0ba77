"""Attract mode runs for months: what it draws must not add up (issue 12).

Four findings of ``bench/soak.py``, each a test: the caches of card faces and text textures
stay within their bounds however many game layouts (card sizes) the demo shows; a cached
card face costs its pixels, not a framebuffer of its own (a render context whose shader
program the driver compiles: about 1.1 MB each, the steps of the soak's curve when a game
with a new card size was shown); an offscreen window's frames do not pile up in Mesa
(the growth that was 2.6 GB in minutes); and the heap a finished demo freed goes back to
the system (resident memory stayed at the largest table's high-water mark).
Counts of cached and live textures and framebuffers, and resident memory after a fixed
number of frames: no timings.
"""

from __future__ import annotations

import gc
import random

import pytest

from kiosk.solving.attract import HandDemo
from tests.ui.memory_child import rss_mb, run_child

DEMO_GAMES = 20
#: engine moves shown of each demo (enough to turn cards up and fill foundations)
MOVES_PER_DEMO = 40
#: framebuffers alive at any time: the faces of 3 card sizes (the visitor's table, the
#: demo's, the welcome screen's showcase) of 2 decks, a back and jokers each. Before the
#: fix each layout added its deck of framebuffers, up to 600 before a reset.
MOST_FBOS = 3 * 110


def _live(kind) -> int:
    """How many objects of ``kind`` are alive (a count: a list of them would keep them)."""
    gc.collect()
    return sum(1 for o in gc.get_objects() if issubclass(type(o), kind))


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_demo_games_of_20_games_keep_the_texture_caches_bounded(ui):
    from kivy.graphics.fbo import Fbo

    from kiosk.table import card_art
    from kiosk.table.card_art import CardWidget

    app, demo = ui.app, ui.app.attract
    ids = app.all_game_ids()
    assert len(ids) >= DEMO_GAMES
    sizes_seen: set[tuple[float, float]] = set()
    rnd = random.Random(12)
    try:
        demo.running = True
        app.sm.current = "attract"
        for game_id in rnd.sample(ids, DEMO_GAMES):
            demo._order, demo._index = [game_id], -1
            demo._next_game()
            demo._cancel()  # the test plays the demo's moves itself, a frame each
            assert demo.ctl is not None and demo.ctl.game_id == game_id, game_id
            hand = isinstance(demo.player, HandDemo)  # a hand table, not the card view
            for _ in range(MOVES_PER_DEMO):
                if not demo.play_one():
                    break
                if not hand:
                    demo.view.sync(animate=False)
                ui.frames(1)
            ui.frames(2)
            if not hand:
                sizes_seen.add(tuple(next(iter(demo.view.cards.values())).size))
            # what a finished table owned is gone: the cards alive are the demo's, the
            # visitor's table's (idle behind) and the welcome screen's showcase
            cards = _live(CardWidget)
            # ... and the hand tables' that were built (Gin Rummy's stock, discard and the
            # last hands shown; Draw Poker's hands; Follow the Rules' stock, trump card,
            # trick and hands)
            hand_tables = [app.sm.built(name) for name in ("gin", "poker", "trick")]
            hand_tables += list(demo.hand_tables.values())  # the demo's own
            on_screens = (len(demo.view.cards) + len(app.welcome.cards)
                          + (len(app.table.view.cards) if app.table.view else 0)
                          + sum(isinstance(w, CardWidget) for s in hand_tables if s is not None
                                for w in s.walk()))
            assert cards <= on_screens + 1, (game_id, cards, on_screens)
            fbos = _live(Fbo)
            assert fbos <= MOST_FBOS, (game_id, fbos)
    finally:
        demo.stop()
        ui.app.show_welcome()
    assert len(sizes_seen) >= 5, "the demos should have shown several card sizes"
    # the caches' own accounts agree with their bounds
    sizes = card_art.cache_sizes()
    assert sizes["card_face_sizes"] <= card_art.FACE_SIZES, sizes
    assert sizes["card_faces"] <= card_art.FACE_ENTRIES <= MOST_FBOS, sizes
    assert sizes["card_face_bytes"] <= card_art.FACE_BYTES, sizes
    assert sizes["text_textures"] <= card_art.TEXT_ENTRIES, sizes
    assert sizes["text_texture_bytes"] <= card_art.TEXT_BYTES, sizes


@pytest.mark.slow
@pytest.mark.timeout(700)
def test_an_offscreen_windows_frames_do_not_pile_up_in_memory():
    """Friday the 13th's demo, 400 frames with moving cards: before the fix the process
    grew by about 700 MB after the warm-up (Mesa's queued frames), now by a few MB."""
    out = run_child("frames_child.py", ["friday_the_thirteenth", "400"], 600)
    assert out["moves"] >= 10, out
    growth = out["end_mb"] - out["warm_mb"]
    assert growth < 100, out


#: card sizes no layout of the session uses (so every face is drawn anew), 6 of them: more
#: than the cache keeps (card_art.FACE_SIZES), so sizes are dropped as well
NEW_SIZES = [(37 + 2 * k, 53 + 3 * k) for k in range(6)]
#: what drawing the 53 faces of those 6 sizes may add to the process: their pixels are
#: under 4 MB. With a framebuffer per face it was about 1.1 MB a face (over 150 MB).
MOST_GROWTH_MB = 40


def test_card_faces_of_new_card_sizes_cost_their_pixels_not_a_framebuffer(ui):
    from kivy.graphics.fbo import Fbo

    from kiosk.table import card_art

    fbos_before = _live(Fbo)
    rss_before = rss_mb()
    faces = []
    for w, h in NEW_SIZES:
        faces += [card_art.card_texture(code, True, w, h) for code in range(52)]
        faces.append(card_art.card_texture(0, False, w, h))
        ui.frames(1)
    gc.collect()
    assert {tuple(t.size) for t in faces} == set(NEW_SIZES)
    assert _live(Fbo) <= fbos_before + 1, "a card face must not keep a framebuffer"
    growth = rss_mb() - rss_before
    assert growth < MOST_GROWTH_MB, f"{growth:.0f} MB for {len(faces)} card faces"


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_demo_tables_of_several_games_keep_one_framebuffer_for_all_faces():
    """The demo tables of 5 games dealt face up (3 card sizes, 171 cached faces): before
    the fix each cached face kept a framebuffer (171 of them), now one board draws them."""
    out = run_child("faces_child.py", ["la_belle_lucie", "the_fan", "beleaguered_castle",
                                     "accordion", "snake"], 300)
    assert len({tuple(s) for s in out["sizes"]}) >= 2, out
    assert out["card_faces"] >= 100, out
    assert out["fbos"] <= 2, out


#: C heap freed in the middle of glibc's heap before the next demo game starts: 64 MB in
#: blocks of 16 kB (under glibc's mmap threshold, so inside the heap, as a table's are)
FREED_BLOCKS, BLOCK_BYTES = 4096, 16384


def test_the_memory_a_finished_demo_freed_goes_back_to_the_system(ui):
    """What a demo table held and freed stayed resident (glibc returns memory only from the
    top of its heap), so each game whose table needed more than any before raised the
    process's resident size for good: the steps of the soak's curve. The next demo game
    gives the free pages back (kiosk.platform.heap)."""
    import ctypes

    libc = ctypes.CDLL("libc.so.6")
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    libc.memset.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
    demo = ui.app.attract
    blocks = [libc.malloc(BLOCK_BYTES) for _ in range(FREED_BLOCKS)]
    for block in blocks:
        libc.memset(block, 1, BLOCK_BYTES)  # resident, as a table's textures are
    pin = libc.malloc(64)  # above them, so they are not the top of the heap
    try:
        for block in blocks:
            libc.free(block)
        freed = rss_mb()
        demo.running = True
        ui.app.sm.current = "attract"
        demo._order, demo._index = ["klondike"], -1
        demo._next_game()
        demo._cancel()
        after = rss_mb()
    finally:
        libc.free(pin)
        demo.stop()
        ui.app.show_welcome()
    total = FREED_BLOCKS * BLOCK_BYTES / 2**20
    assert freed - after > total / 2, f"{freed:.0f} MB -> {after:.0f} MB"


def _stencil_lines(canvas) -> int:
    """Lines Kivy draws through a stencil: wider than 1 px under a colour with alpha < 1."""
    from kivy.graphics import Color, InstructionGroup, Line

    alpha, count = 1.0, 0
    for ins in canvas.children:
        if isinstance(ins, Color):
            alpha = ins.a
        elif isinstance(ins, Line) and ins.width != 1.0 and alpha < 1:
            count += 1
        elif isinstance(ins, InstructionGroup):
            count += _stencil_lines(ins)
    return count


def test_a_tables_empty_places_are_outlined_without_a_stencil(ui):
    """Maze's first demo left 15 MB of C heap for good (the in-process loop of fe52ad9:
    pyramid's table 70.7 MB of heap in use before Maze, 85.4 MB after), from its 54 outlines
    drawn as 1.2 px lines at alpha 0.28, which Kivy draws through a stencil; at 1 px the same
    loop leaves +2.5 MB. Counted on the demo's Maze table: no such line."""
    demo = ui.app.attract
    demo.running = True
    ui.app.sm.current = "attract"
    try:
        demo._order, demo._index = ["maze"], -1
        demo._next_game()
        demo._cancel()
        ui.frames(3)
        view = demo.view
        assert len(view._outlines.children) > 0  # the outlines are drawn
        canvases = [view.canvas.before, view.canvas, view.canvas.after]
        assert sum(_stencil_lines(c) for c in canvases) == 0
    finally:
        demo.stop()
