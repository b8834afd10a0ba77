"""The boot test's operator (update_steps.Operator) tells the screens apart the way it must at
the guest's screen: here on the app's own pictures, without QEMU, so a change of the menu's
look that would blind it fails in seconds instead of after an hour of emulated boots."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from . import update_steps as up
from .conftest import REPO
from .pictures import read_png


@pytest.fixture(scope="module")
def references(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict, Path]:
    config = REPO / "config.example.toml"
    ref = up.operator_reference(tmp_path_factory.mktemp("operator-ref"), config)
    boot = tmp_path_factory.mktemp("boot-ref")
    proc = subprocess.run([sys.executable, "-m", "tests.platform.boot_reference", str(boot),
                           str(config), "800x480"], cwd=REPO, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    screens = {path.stem: read_png(path) for path in boot.glob("*.png")}
    return ref, screens, boot


def test_each_screen_is_told_apart(references, tmp_path: Path):
    ref, screens, _ = references
    operator = up.Operator(None, ref, screens, tmp_path)   # type: ignore[arg-type]
    for name, picture in {**screens, **ref["pictures"]}.items():
        assert operator.which(picture) == name, name


def test_only_the_lit_update_tab_is_the_update_page(references, tmp_path: Path):
    """The menu's first page with its update tab painted as when lit reads as the update
    page; the update page with that tab painted as on the first page reads as the menu."""
    ref, screens, _ = references
    operator = up.Operator(None, ref, screens, tmp_path)   # type: ignore[arg-type]
    menu, update = ref["pictures"]["menu"], ref["pictures"]["update"]
    x0, y0 = ref["update_tab"]
    x0 -= ref["update_tab"][0] * 3 // 4

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
    ref, _, _ = references
    assert set("0123456789") | {"ok"} <= set(ref["keys"])
    w, h = ref["size"]
    for x, y in [*ref["keys"].values(), ref["update_tab"], ref["install"], ref["close"]]:
        assert 0 <= x < w and 0 <= y < h
