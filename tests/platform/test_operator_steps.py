"""The boot test's operator (update_steps.Operator) tells the screens apart the way it must at
the guest's screen: here on the app's own pictures, without QEMU, so a change of the menu's
look that would blind it fails in seconds instead of after an hour of emulated boots."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import update_steps as up
from .conftest import REPO
from .test_boot_image import reference

__all__ = ["reference"]   # the boot test's pictures (a fixture)


@pytest.fixture(scope="module")
def references(reference, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict]:
    """The operator's screens and the boot test's own (its ``reference`` fixture)."""
    ref = up.operator_reference(tmp_path_factory.mktemp("operator-ref"),
                                REPO / "config.example.toml")
    return ref, reference[1]


def test_each_screen_is_told_apart(references, tmp_path: Path):
    ref, screens = references
    operator = up.Operator(None, ref, screens, tmp_path)   # type: ignore[arg-type]
    for name, picture in {**screens, **ref["pictures"]}.items():
        assert operator.which(picture) == name, name


def test_only_the_lit_update_tab_is_the_update_page(references, tmp_path: Path):
    """The menu's first page with its update tab painted as when lit reads as the update
    page; the update page with that tab painted as on the first page reads as the menu."""
    ref, screens = references
    operator = up.Operator(None, ref, screens, tmp_path)   # type: ignore[arg-type]
    menu, update = ref["pictures"]["menu"], ref["pictures"]["update"]
    x0, y0 = up.tab_patch(ref)

    def with_patch_of(target, source):
        rgb = bytearray(target.rgb)
        for y in range(y0 - 4, y0 + 5):
            for x in range(x0 - 4, x0 + 5):
                i = (y * target.width + x) * 3
                rgb[i:i + 3] = source.rgb[i:i + 3]
        return type(target)(target.width, target.height, bytes(rgb))

    assert operator.which(with_patch_of(menu, update)) == "update"
    assert operator.which(with_patch_of(update, menu)) == "menu"


def test_the_reference_says_where_every_key_is(references):
    ref, _ = references
    assert set("0123456789") | {"ok"} <= set(ref["keys"])
    w, h = ref["size"]
    for x, y in [*ref["keys"].values(), ref["update_tab"], ref["install"], ref["close"]]:
        assert 0 <= x < w and 0 <= y < h
