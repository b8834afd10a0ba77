"""What the Status page reads about the fleet's sync, without the app: the outcome of a
"Sync now" pass from its status file, and an error's kind rather than its words."""

from __future__ import annotations

import subprocess
import sys

from kiosk.fleet import state, status_panel
from kiosk.fleet.status_panel import SyncWatch
from kiosk.i18n import catalog
from kiosk.settings import config


def test_a_pass_is_over_when_its_status_file_is_written(tmp_path):
    state.save_status(tmp_path, state.Status(last_ok="2025-03-04T10:00:00Z"))
    clock = [0.0]
    watch = SyncWatch(tmp_path, None, clock=lambda: clock[0])
    clock[0] = 30.0
    assert watch.check() == SyncWatch.RUNNING
    # the same content written again is still a new pass's word (a new file)
    state.save_status(tmp_path, state.Status(last_ok="2025-03-04T10:00:00Z"))
    assert watch.check() == SyncWatch.DONE


def test_a_first_pass_writes_the_file_that_was_not_there(tmp_path):
    watch = SyncWatch(tmp_path, None)
    assert watch.check() == SyncWatch.RUNNING
    state.save_status(tmp_path, state.Status(last_error="x", last_error_kind="no-network"))
    assert watch.check() == SyncWatch.DONE


def test_a_child_that_ends_without_writing_is_no_result_and_a_silent_pass_times_out(tmp_path):
    clock = [0.0]
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    watch = SyncWatch(tmp_path, child, clock=lambda: clock[0])
    assert watch.check() == SyncWatch.RUNNING   # its last write may still land
    clock[0] = 1.5
    assert watch.check() == SyncWatch.NO_RESULT
    silent = SyncWatch(tmp_path, None, clock=lambda: clock[0])
    clock[0] += status_panel.WATCH_SECONDS - 1
    assert silent.check() == SyncWatch.RUNNING
    clock[0] += 2
    assert silent.check() == SyncWatch.TIMEOUT


def test_every_kind_has_advice_in_every_language_and_an_unknown_one_a_generic_line():
    from kiosk.fleet.errors import KINDS
    from kiosk.fleet.state import Status

    assert set(status_panel.ADVICE) == set(KINDS)
    assert status_panel.advice(None) == status_panel.advice("new") == \
        status_panel.ADVICE_UNKNOWN
    lines = [*status_panel.ADVICE.values(), status_panel.ADVICE_UNKNOWN, status_panel.KEPT]
    for lang in ("zh", "ru"):
        assert all(catalog(lang).get(m) for m in lines), lang
    assert len(set(lines)) == len(lines)
    assert {"last_error_kind", "set_aside"} <= set(Status.__dataclass_fields__)


def test_the_status_read_survives_a_status_file_another_version_wrote(tmp_path):
    cfg = config.load_text(f'[log]\ndata_dir = "{tmp_path}"\n')
    (tmp_path / state.STATUS_NAME).write_text(
        '{"last_ok": 5, "last_error": "x", "last_error_kind": ["?"], "set_aside": "3", '
        '"sent_plays": -2, "future_field": 1}')
    st = status_panel.read_status(cfg)
    assert st.last_ok is None and st.last_error == "x" and st.last_error_kind is None
    assert st.set_aside == 0 and st.sent_plays == 0
