"""A scrolling list of buttons where a scroll never presses a button.

Kivy's ScrollView decides between a scroll and a press by Kivy's own convention: a touch
that travels ``scroll_distance`` within ``scroll_timeout`` scrolls; one that does not is
handed to the button under it. A finger that rests a moment and then slides (the usual way
an older visitor or an operator scrolls a long list) therefore pressed the button it started
on, and the button's release switched and saved a setting. :class:`TouchScroll` keeps the
same convention to the end of the touch: once a touch handed to a button travels
``scroll_distance`` from where it began, the press is withdrawn (no release, no action) and
the touch scrolls the list instead, so a press is decided only by a touch that did not
scroll.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget


class TouchScroll(ScrollView):
    """A vertical list that withdraws a press from a touch that goes on to scroll."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._dragging = f"touchscroll.drag.{self.uid}"
        self._began = f"touchscroll.began.{self.uid}"
        self._held: float | None = None

    @property
    def offset(self) -> float:
        """How far (px) the list is scrolled down from its top; kept across a rebuild."""
        content = self.children[0] if self.children else None
        if content is None or content.height <= self.height:
            return 0.0
        return (1 - self.scroll_y) * (content.height - self.height)

    def scroll_to_offset(self, offset: float) -> None:
        content = self.children[0] if self.children else None
        room = content.height - self.height if content is not None else 0
        self.scroll_y = 1.0 if room <= 0 else min(1.0, max(0.0, 1 - offset / room))

    def hold_offset(self, offset: float) -> None:
        """Keep the list ``offset`` px down from its top while it is laid out (its rows and
        texts settle over a frame or two) until a finger moves it: a page rebuilt after a
        saved change stays where the operator was."""
        self._held = offset
        self.bind(height=self._keep)
        if self.children:
            self.children[0].bind(height=self._keep)
        self._keep()

    def _keep(self, *_a: Any) -> None:
        if self._held is not None:
            self.scroll_to_offset(self._held)

    def on_touch_down(self, touch: Any) -> Any:
        if self.collide_point(*touch.pos):
            touch.ud[self._began] = True
            self._held = None
        return super().on_touch_down(touch)

    def on_touch_move(self, touch: Any) -> Any:
        if touch.ud.get(self._dragging):
            if touch.grab_current is self:
                self._follow(touch)
            return True
        if (touch.ud.get(self._began) and self._touch is not touch
                and self._travelled(touch) > self.scroll_distance and self._withdraw(touch)):
            touch.ud[self._dragging] = True
            touch.grab(self)
            return True
        return super().on_touch_move(touch)

    def on_touch_up(self, touch: Any) -> Any:
        if touch.ud.get(self._dragging):
            if touch.grab_current is self:
                touch.ungrab(self)
            return True
        return super().on_touch_up(touch)

    @staticmethod
    def _travelled(touch: Any) -> float:
        return max(abs(touch.x - touch.ox), abs(touch.y - touch.oy))

    def _withdraw(self, touch: Any) -> bool:
        """Take the touch back from the buttons of this list that hold it: they go back to
        normal without a release. True when there was one."""
        taken = False
        for ref in list(touch.grab_list):
            widget = ref()
            if isinstance(widget, ButtonBehavior) and self._holds(widget):
                touch.ungrab(widget)
                widget.state = "normal"
                taken = True
        return taken

    def _holds(self, widget: Widget) -> bool:
        parent, seen = widget.parent, set()
        while parent is not None and id(parent) not in seen:  # the window is its own parent
            if parent is self:
                return True
            seen.add(id(parent))
            parent = parent.parent
        return False

    def _follow(self, touch: Any) -> None:
        """The list follows the finger (content up when the finger goes up)."""
        content = self.children[0] if self.children else None
        if content is None or content.height <= self.height or not self.do_scroll_y:
            return
        room = content.height - self.height
        self.scroll_y = min(1.0, max(0.0, self.scroll_y - touch.dy / room))
