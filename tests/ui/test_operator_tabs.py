"""The operator menu's tabs are read by an operator who is often not young, on the kiosk's
own screen: their labels keep a size that reads at arm's length in every language and on
both screens. Six tabs in one row of a 720x1280 screen had shrunk to 11 px in English and
14 in Russian ("Software update", "Статистика" set the size of all); in portrait they stand
in rows of three."""

from __future__ import annotations

import pytest

from tests.ui.screen_walk import LANGS
from tests.ui.test_text_fit import SIZES

#: the smallest tab label, in the screen's units (1 unit = 1 px at 800x480, 1.5 at 720x1280)
MIN_TAB_FONT_UNITS = 15


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_tab_labels_keep_a_readable_size(ui, lang, size):
    ui.reset(lang, size)
    ui.app.show_operator("stats")
    ui.frames(2)
    menu = ui.app.operator
    u = min(size) / 480
    sizes = {page: b.font_size / u for page, b in menu.tab_buttons.items()}
    assert min(sizes.values()) >= MIN_TAB_FONT_UNITS, sizes
    for page, b in menu.tab_buttons.items():
        b.texture_update()
        assert b.texture_size[0] <= b.width, (page, b.text, b.texture_size, b.width)
    # and the tabs stand above the page, not over it
    assert min(b.y for b in menu.tab_buttons.values()) >= menu.panel.top - 0.5 or \
        size[0] >= size[1]
