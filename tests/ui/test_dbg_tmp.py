from tests.ui.test_lobby import *  # noqa

def test_dbg(ui, menu):
    menu.show("export")
    ui.frames(2)
    button = next(w for w in menu.panel.walk() if getattr(w, "text", "") == "Export to the USB stick")
    print("button", button.pos, button.size, button.to_window(*button.center), menu.panel.pos, menu.panel.size, ui.app.sm.current)
    ui.frames(3)
    print("button", button.pos, button.size, button.to_window(*button.center), button.parent)
    assert 0
