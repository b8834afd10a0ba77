"""Updates of the kiosk's whole system, A and B (docs/updates.md): RAUC writes a signed
bundle to the slot that is not running, the Pi firmware's tryboot starts it once, and only
a healthy new system is committed.

The parts, each usable on its own by the USB stick's page of the operator menu, the
centre's download (issue 33, item 6) and the ``kiosk update`` command line:

* :mod:`.version`: what a version is (the app's version and the build's UTC time) and the
  running system's, from ``/etc/os-release``;
* :mod:`.bundle`: a bundle checked before anything is written (signature against the
  image's keyring, ``compatible``, not older than the running system): one line when
  refused;
* :mod:`.slots`: which slot runs, which one the firmware starts, their states (the RAUC
  backend ``rauc-tryboot`` says);
* :mod:`.status`: ``update-status.json`` in the data directory, the one place every part
  reads and the root-side parts write (progress of an install, the last outcome);
* :mod:`.install`: ``rauc install`` with its progress written there;
* :mod:`.quiet`: "no visitor is playing": the app publishes the screen it shows, the
  root side waits for some minutes of attract mode before it restarts the kiosk;
* :mod:`.commit`: after the boot of a slot on trial, the health check that commits it or
  gives it up;
* :mod:`.requests`: the kiosk app (unprivileged, no network) asks for an install or a
  restart by leaving ``update.request`` in the data directory, which
  ``solitaire-kiosk-update.path`` hands to the root unit that does it.
"""
