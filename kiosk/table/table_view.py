"""The table: draws any game from its declared layout and turns fingers into moves.

The view never decides a rule. It asks :class:`kiosk.table.touch.Interaction` what a tap or a drop
means, that asks the controller, the controller asks the engine, and the view then redraws
from the engine's state (:meth:`TableView.sync`). Hit-testing uses the geometry of the
engine's current position, not where animated widgets happen to be, so a touch during an
animation can never act on a stale picture of the game.
"""

from __future__ import annotations

import logging
import math

from kivy.animation import Animation
from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, InstructionGroup, Line, Rectangle, RoundedRectangle
from kivy.properties import BooleanProperty
from kivy.uix.widget import Widget

from kiosk.i18n import catalog
from kiosk.table.card_art import CardWidget, text_texture
from kiosk.table.controller import TableController
from kiosk.table.geometry import Rect, TableGeometry
from kiosk.table.touch import Interaction, TapResult, piles_of

log = logging.getLogger("kiosk.table")

MOVE_TIME = 0.2
HIGHLIGHT = (0.98, 0.8, 0.25, 1)
SELECT = (0.35, 0.8, 1.0, 1)
#: a hint's glow: green, unlike the gold of drop targets and the blue of a selection
HINT = (0.3, 1.0, 0.45, 1)
#: the width of an empty place's outline. Kivy draws a wider Line under a see-through colour
#: through a stencil (push, draw, mask, pop: four draws a line), and Mesa's llvmpipe keeps
#: what the largest of those frames needed: Maze's 54 outlines left 15 MB of C heap for
#: good (docs/benchmarks.md, "Soak: attract mode memory"). A 1-pixel line is one plain draw.
OUTLINE_WIDTH = 1.0
#: how long a hint stays on the table, and one flight of its ghost card
HINT_SECONDS = 5.0
GHOST_FLIGHT = 0.9


class TableView(Widget):
    """Cards, empty-pile outlines and highlights for one controller's game.

    Events: ``on_result(result)`` after every tap or drop (the screen shows reasons, runs
    autoplay and updates its bar).

    The view redraws itself from the controller's ``on_change``, once per change of the
    position, whoever caused it (a touch here, a button, a key, autoplay, the demo): nobody
    else calls :meth:`sync` after a change, so a new deal or a move is drawn exactly once.
    """

    four_colour = BooleanProperty(False)
    animate = BooleanProperty(True)

    __events__ = ("on_result",)

    def __init__(self, controller: TableController, **kw) -> None:
        super().__init__(**kw)
        self.ctl = controller
        controller.bind(on_change=self._changed)
        self.interaction = Interaction(controller)
        self.geom: TableGeometry | None = None
        self.cards: dict[int, CardWidget] = {}
        self._order: list[int] = []
        self._outlines = InstructionGroup()
        self._marks = InstructionGroup()
        self._hint_marks = InstructionGroup()
        self.canvas.before.add(self._outlines)
        self.canvas.after.add(self._marks)
        self.canvas.after.add(self._hint_marks)
        #: the move a hint shows now (None: no hint on the table)
        self.hint_move = None
        #: the piles it lights: where the cards come from, where they go
        self.hint_source: int = -1
        self.hint_target: int = -1
        self._hint_glow: list[Color] = []
        self._hint_evs: list = []
        self._ghost: CardWidget | None = None
        self._hint_t = 0.0
        self._touch = None
        self._press: tuple[int, int] | None = None
        self._drag: list[CardWidget] = []
        self._drag_targets: dict[int, object] = {}
        self._dragging = False
        self._grab_offset = (0.0, 0.0)
        self._layout_key = None
        self.bind(pos=self._resized, size=self._resized, four_colour=self._recolour)

    def on_result(self, result: TapResult) -> None:
        pass

    # ------------------------------------------------------------------ drawing
    def set_controller(self, controller: TableController) -> None:
        if self.ctl is not None:
            self.ctl.unbind(on_change=self._changed)
        self.ctl = controller
        controller.bind(on_change=self._changed)
        self.interaction = Interaction(controller)
        self.rebuild()

    def _changed(self, what: str) -> None:
        """The one redraw of a change of the position."""
        if what == "new_deal":
            self.rebuild()
        elif what == "set_game":
            self.interaction.reset()
            self.sync(animate=False)
        elif what in ("undo", "restore"):  # a game put aside flies back to its places
            self.interaction.reset()
            self.sync(animate=True)
        else:
            self.sync(animate=True)

    def rebuild(self) -> None:
        """Start over from the controller's game (a new deal or another game)."""
        for w in self.cards.values():
            Animation.cancel_all(w)
        self.clear_widgets()
        self.cards.clear()
        self._order = []
        self._layout_key = None
        self.interaction.reset()
        self._cancel_drag()
        self.clear_hint()
        self.sync(animate=False)

    def _resized(self, *_a) -> None:
        self.clear_hint()
        self._layout_key = None
        self.sync(animate=False)

    def _recolour(self, *_a) -> None:
        for w in self.cards.values():
            w.four_colour = self.four_colour

    def geometry(self) -> TableGeometry:
        key = (id(self.ctl.game.layout), tuple(self.pos), tuple(self.size))
        if self.geom is None or key != self._layout_key:
            self.geom = TableGeometry(self.ctl.game.layout, self.x, self.y, self.width,
                                      self.height)
            self._layout_key = key
            self._draw_outlines()
        return self.geom

    def card_rects(self) -> dict[int, Rect]:
        """Where each card of the current position is drawn (the tests check these)."""
        g, geom = self.ctl.game, self.geometry()
        out: dict[int, Rect] = {}
        for i, pile in enumerate(g.cards):
            for code, r in zip(pile, geom.card_rects(i, len(pile), g.down[i]), strict=True):
                out[code] = r
        return out

    def _draw_outlines(self) -> None:
        """An outline for each empty place, drawn the way a person lays cards out: a grid
        has clean cells (overlapping places are drawn at the grid's pitch), a row that grows
        shows only the next place, and a place of an overlapping spread (a pyramid's) is
        simply gone once its card is."""
        geom = self.geom
        grp = self._outlines
        grp.clear()
        if geom is None:
            return
        layout, cards = self.ctl.game.layout, self.ctl.game.cards
        for i, spec in enumerate(layout):
            b = outline_rect(geom, layout, cards, i)
            if b is None:
                continue
            rad = max(2.0, b.w * 0.08)
            grp.add(Color(0, 0, 0, 0.12))
            grp.add(RoundedRectangle(pos=(b.x, b.y), size=(b.w, b.h), radius=[rad]))
            grp.add(Color(1, 1, 1, 0.28))
            grp.add(Line(rounded_rectangle=(b.x + 1, b.y + 1, b.w - 2, b.h - 2, rad),
                         width=OUTLINE_WIDTH))
            label = self._label(spec.label)
            if label:
                px = int(b.w * 0.42)
                tex = text_texture(label, px, True)
                if tex.width > b.w * 0.86:  # a word, not a rank: shrink it into the outline
                    tex = text_texture(label, max(6, int(px * b.w * 0.86 / tex.width)), True)
                grp.add(Color(1, 1, 1, 0.3))
                grp.add(Rectangle(texture=tex, size=tex.size,
                                  pos=(round(b.x + (b.w - tex.width) / 2),
                                       round(b.y + (b.h - tex.height) / 2))))

    @staticmethod
    def _label(text: str) -> str:
        """A pile's label in the current language; an untranslated word is left out."""
        if not text:
            return ""
        app = App.get_running_app()
        if app is None or len(text) <= 2:
            return text
        if app.lang == "en" or catalog(app.lang).get(text):
            return app.tr(text)
        return ""

    def sync(self, animate: bool = True, on_top: tuple[int, ...] = ()) -> None:
        """Put every card where the engine's position says, animating the ones that move."""
        if self.width < 10 or self.height < 10:
            return
        g = self.ctl.game
        geom = self.geometry()
        size = (round(geom.card_w), round(geom.card_h))
        order: list[int] = []
        moving: list[int] = []
        present = set()
        for i, pile in enumerate(g.cards):
            rects = geom.card_rects(i, len(pile), g.down[i])
            for k, (code, r) in enumerate(zip(pile, rects, strict=True)):
                present.add(code)
                w = self.cards.get(code)
                up = k >= g.down[i]
                if w is None:
                    w = CardWidget(code, up, size=size, pos=(round(r.x), round(r.y)),
                                   four_colour=self.four_colour)
                    self.cards[code] = w
                w.face_up = up
                if tuple(w.size) != size:
                    w.size = size
                target = (round(r.x), round(r.y))
                Animation.cancel_all(w)
                if animate and self.animate and tuple(w.pos) != target and w not in self._drag:
                    Animation(pos=target, d=MOVE_TIME, t="out_quad").start(w)
                    moving.append(code)
                elif w not in self._drag:
                    w.pos = target
                order.append(code)
        for code in list(self.cards):
            if code not in present:
                self.remove_widget(self.cards.pop(code))
        lift = set(moving) | set(on_top)
        order = [c for c in order if c not in lift] + [c for c in order if c in lift]
        if order != self._order:
            self.clear_widgets()
            for code in order:
                self.add_widget(self.cards[code])
            self._order = order
        self._draw_outlines()  # which empty places show depends on the position
        self._draw_marks()

    # ------------------------------------------------------------------ highlights
    def _draw_marks(self, targets: frozenset[int] | set[int] = frozenset()) -> None:
        grp = self._marks
        grp.clear()
        geom = self.geom
        if geom is None:
            return
        g = self.ctl.game
        for piles, rgba in ((set(self.interaction.selection), SELECT), (set(targets), HIGHLIGHT)):
            for i in sorted(piles):
                rects = geom.card_rects(i, len(g.cards[i]), g.down[i])
                r = rects[-1] if rects else geom.base(i)
                rad = max(2.0, r.w * 0.08)
                grp.add(Color(rgba[0], rgba[1], rgba[2], 0.22))
                grp.add(RoundedRectangle(pos=(r.x, r.y), size=(r.w, r.h), radius=[rad]))
                grp.add(Color(*rgba))
                grp.add(Line(rounded_rectangle=(r.x - 2, r.y - 2, r.w + 4, r.h + 4, rad + 2),
                             width=2.5))

    def show_targets(self, piles: frozenset[int] | set[int]) -> None:
        self._draw_marks(piles)

    # ------------------------------------------------------------------ hints
    def show_hint(self, move, seconds: float = HINT_SECONDS) -> None:
        """Show ``move`` without playing it: a pulsing green outline round the cards to move
        and round the place they go, and a see-through copy of the card flying there, so a
        visitor understands it without words. Gone after ``seconds`` or at the next change."""
        self.clear_hint()
        g, geom = self.ctl.game, self.geometry()
        self.hint_move = move
        boxes: list[Rect] = []
        if move.kind == "move":
            self.hint_source, self.hint_target = move.src, move.dst
            src_rects = geom.card_rects(move.src, len(g.cards[move.src]), g.down[move.src])
            run = src_rects[-move.n:] if src_rects else [geom.base(move.src)]
            boxes.append(_union(run))
            n_dst = len(g.cards[move.dst])
            dst_rects = geom.card_rects(move.dst, n_dst + move.n, g.down[move.dst])
            land = dst_rects[n_dst] if len(dst_rects) > n_dst else geom.base(move.dst)
            boxes.append(land)
            lead = len(g.cards[move.src]) - move.n
            if lead >= 0:
                self._fly_ghost(g.cards[move.src][lead], lead >= g.down[move.src], run[0], land)
        else:
            piles = sorted(piles_of(move))
            if not piles and move.kind == "deal" and g.roles.get("stock"):
                piles = [g.roles["stock"][0]]
            self.hint_source = piles[0] if piles else -1
            self.hint_target = piles[-1] if len(piles) > 1 else -1
            for i in piles:
                rects = geom.card_rects(i, len(g.cards[i]), g.down[i])
                boxes.append(rects[-1] if rects else geom.base(i))
        grp = self._hint_marks
        for r in boxes:
            rad = max(2.0, r.w * 0.08)
            fill = Color(HINT[0], HINT[1], HINT[2], 0.18)
            grp.add(fill)
            grp.add(RoundedRectangle(pos=(r.x, r.y), size=(r.w, r.h), radius=[rad]))
            line = Color(*HINT)
            grp.add(line)
            pad = max(3.0, r.w * 0.05)
            grp.add(Line(rounded_rectangle=(r.x - pad, r.y - pad, r.w + 2 * pad,
                                            r.h + 2 * pad, rad + pad), width=3.2))
            self._hint_glow += [fill, line]
        self._hint_t = 0.0
        if self.animate:
            self._hint_evs.append(Clock.schedule_interval(self._pulse, 1 / 30))
        self._hint_evs.append(Clock.schedule_once(lambda _dt: self.clear_hint(), seconds))

    def clear_hint(self) -> None:
        for ev in self._hint_evs:
            ev.cancel()
        self._hint_evs = []
        self._hint_marks.clear()
        self._hint_glow = []
        if self._ghost is not None:
            Animation.cancel_all(self._ghost)
            if self._ghost.parent is self:
                self.remove_widget(self._ghost)
            self._ghost = None
        self.hint_move = None
        self.hint_source = self.hint_target = -1

    def _pulse(self, dt: float) -> None:
        self._hint_t += dt
        k = 0.55 + 0.45 * math.cos(self._hint_t * 2 * math.pi / 1.2)
        for j, c in enumerate(self._hint_glow):
            c.a = (0.1 + 0.16 * k) if j % 2 == 0 else (0.45 + 0.55 * k)

    def _fly_ghost(self, code: int, up: bool, start: Rect, end: Rect) -> None:
        """A see-through copy of the lead card going from its place to the target, again and
        again while the hint shows (a still arrow-like copy without animation)."""
        ghost = CardWidget(code, up, size=(round(start.w), round(start.h)),
                           four_colour=self.four_colour, opacity=0.6)
        self._ghost = ghost
        self.add_widget(ghost)
        if not self.animate:
            ghost.pos = (round(end.x), round(end.y))
            return
        ghost.pos = (round(start.x), round(start.y))
        there = (round(end.x), round(end.y))
        anim = (Animation(pos=there, opacity=0.7, d=GHOST_FLIGHT, t="in_out_quad")
                + Animation(d=0.35) + Animation(opacity=0, d=0.2)
                + Animation(pos=(round(start.x), round(start.y)), d=0)
                + Animation(opacity=0.6, d=0.15))
        anim.repeat = True
        anim.start(ghost)

    # ------------------------------------------------------------------ hit testing
    def hit(self, x: float, y: float) -> tuple[int, int] | None:
        """``(pile, card index)`` under a point; index -1 for an empty pile's outline.

        Piles later in the layout are drawn on top (grids may overlap), so they are tried
        first, and a card wins over an empty outline lying on it."""
        g, geom = self.ctl.game, self.geometry()
        empty = None
        for i in range(len(g.cards) - 1, -1, -1):
            pile = g.cards[i]
            rects = geom.card_rects(i, len(pile), g.down[i])
            for k in range(len(rects) - 1, -1, -1):
                if rects[k].contains(x, y):
                    return i, k
            if not pile and empty is None and geom.base(i).contains(x, y):
                empty = (i, -1)
        return empty

    def drop_target(self, lead: CardWidget) -> int | None:
        """The pile a dragged packet was released on: the legal target it overlaps most,
        else any other pile it overlaps most (to explain why not)."""
        g, geom = self.ctl.game, self.geometry()
        box = Rect(lead.x, lead.y, lead.width, lead.height)
        best, best_area, best_legal, legal_area = None, 0.0, None, 0.0
        src = self._press[0] if self._press else -1
        for i, pile in enumerate(g.cards):
            if i == src:
                continue
            area = geom.pile_area(i, len(pile), g.down[i]).overlap(box)
            if area > best_area:
                best, best_area = i, area
            if i in self._drag_targets and area > legal_area:
                best_legal, legal_area = i, area
        if best_legal is not None:
            return best_legal
        return best if best_area > 0.15 * box.w * box.h else None

    # ------------------------------------------------------------------ touches
    def on_touch_down(self, touch) -> bool:
        if not self.collide_point(*touch.pos) or self._touch is not None:
            return False
        if getattr(touch, "is_mouse_scrolling", False):
            return False
        try:
            hit = self.hit(*touch.pos)
        except Exception:
            log.exception("hit test failed")
            return True
        if hit is None:
            if self.interaction.selection:
                self.interaction.selection.clear()
                self._draw_marks()
            return True
        self._touch = touch
        self._press = hit
        self._dragging = False
        touch.grab(self)
        return True

    def on_touch_move(self, touch) -> bool:
        if touch.grab_current is not self or touch is not self._touch or self._press is None:
            return False
        try:
            if not self._dragging:
                dist = math.hypot(touch.x - touch.ox, touch.y - touch.oy)
                if dist < max(10.0, self.geometry().card_w * 0.12):
                    return True
                if not self._start_drag(touch):
                    return True
            lead = self._drag[0]
            lead_x = touch.x - self._grab_offset[0]
            lead_y = touch.y - self._grab_offset[1]
            dx, dy = lead_x - lead.x, lead_y - lead.y
            for w in self._drag:
                w.pos = (w.x + dx, w.y + dy)
        except Exception:
            log.exception("drag failed")
        return True

    def on_touch_up(self, touch) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        if touch is not self._touch:
            return True
        press, self._touch, self._press = self._press, None, None
        try:
            if self._dragging:
                self._press = press
                self._finish_drag()
            elif press is not None:
                self._handle(self.interaction.tap(*press), press)
        except Exception:
            log.exception("touch failed")
            self._cancel_drag()
            self.sync(animate=False)
        finally:
            self._press = None
        return True

    def _start_drag(self, touch) -> bool:
        pile, index = self._press
        if index < 0 or not self.interaction.can_drag(pile, index):
            return False
        g = self.ctl.game
        codes = g.cards[pile][index:]
        self._drag = [self.cards[c] for c in codes if c in self.cards]
        if not self._drag:
            return False
        for w in self._drag:
            Animation.cancel_all(w)
            self.remove_widget(w)
            self.add_widget(w)
        self._order = [c for c in self._order if c not in codes] + list(codes)
        lead = self._drag[0]
        self._grab_offset = (touch.ox - lead.x, touch.oy - lead.y)
        self._drag_targets = self.interaction.drag_targets(pile, index)
        self._dragging = True
        self.show_targets(set(self._drag_targets))
        return True

    def _finish_drag(self) -> None:
        pile, index = self._press
        lead = self._drag[0]
        target = self.drop_target(lead)
        dragged = self._drag
        self._dragging = False
        self._drag = []
        self._drag_targets = {}
        if target is None:
            self.sync(animate=True)
            return
        result = self.interaction.drop(pile, index, target)
        if result.outcome != "played":  # a move redrew on its own; a refusal flies back
            self.sync(animate=True)
        if result.outcome == "refused":  # the flight back and the wobble: one animation
            self.shake(dragged)
        self.dispatch("on_result", result)

    def _cancel_drag(self) -> None:
        self._drag = []
        self._drag_targets = {}
        self._dragging = False
        self._touch = None
        self._press = None

    def _handle(self, result: TapResult, press: tuple[int, int]) -> None:
        # a played move has redrawn the table already (_changed)
        if result.outcome == "selected":
            self._draw_marks(result.highlight)
        elif result.outcome == "refused":
            self._draw_marks()
            pile, index = press
            codes = self.ctl.game.cards[pile][max(index, 0):]
            self.shake([self.cards[c] for c in codes if c in self.cards])
        elif result.outcome != "played":
            self._draw_marks()
        self.dispatch("on_result", result)

    def shake(self, widgets: list[CardWidget]) -> None:
        """"No, not there": the cards go back to their slots and wobble there, as one
        animation per card that ends exactly on the slot.

        The slot comes from the engine's position, never from where the widget is now: a
        card still flying back (a refused drop at a busy moment, a second refusal during
        the first wobble) would otherwise wobble round a point on its way and stay there."""
        slots = self.card_rects()
        amp = max(4.0, (self.geom.card_w if self.geom else 60) * 0.08)
        for w in widgets:
            r = slots.get(w.code)
            if r is None:
                continue
            slot = (round(r.x), round(r.y))
            Animation.cancel_all(w)
            if not self.animate:
                w.pos = slot
                continue
            x, y = slot
            back = math.hypot(w.x - x, w.y - y)
            anim = Animation(pos=slot, d=MOVE_TIME, t="out_quad") if back > 0.5 else None
            wobble = (Animation(pos=(x - amp, y), d=0.05) + Animation(pos=(x + amp, y), d=0.08)
                      + Animation(pos=(x - amp / 2, y), d=0.06) + Animation(pos=slot, d=0.05))
            anim = wobble if anim is None else anim + wobble
            anim.bind(on_complete=lambda _a, wd, s=slot: setattr(wd, "pos", s))
            anim.start(w)


def outline_rect(geom: TableGeometry, layout, cards, i: int) -> Rect | None:
    """Where the outline of pile ``i`` is drawn, or None for no outline (see
    :meth:`TableView._draw_outlines`)."""
    b = geom.base(i)
    overlapped = [j for j in range(len(layout)) if j != i
                  and geom.base(j).overlap(b) > 0.05 * b.w * b.h]
    if not overlapped:
        return b
    spec = layout[i]
    if spec.role == "grid":
        # a clean cell: the card's box cut down to the pitch of its neighbours
        w, h = b.w, b.h
        for j in overlapped:
            o = geom.base(j)
            dx, dy = abs(o.x - b.x), abs(o.y - b.y)
            if dy < 0.5 * b.h and dx > 0:
                w = min(w, dx * 0.92)
            if dx < 0.5 * b.w and dy > 0:
                h = min(h, dy * 0.92)
        return Rect(b.x + (b.w - w) / 2, b.y + (b.h - h) / 2, w, h)
    if cards[i]:
        return None  # a card covers it anyway
    row = [j for j in overlapped if abs(geom.base(j).y - b.y) < 1]
    if row:  # a row that grows: only the place the next card goes
        before = [j for j in row if j < i]
        return b if before and cards[max(before)] else None
    return None


def _union(rects: list[Rect]) -> Rect:
    """The smallest rectangle round ``rects`` (a run of fanned cards)."""
    x0 = min(r.x for r in rects)
    y0 = min(r.y for r in rects)
    x1 = max(r.x + r.w for r in rects)
    y1 = max(r.y + r.h for r in rects)
    return Rect(x0, y0, x1 - x0, y1 - y0)
