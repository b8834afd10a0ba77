"""Platform tests: systemd units, the watchdog, the SD-card image, the Pi's architecture."""
