"""The machine under the kiosk: Kivy's start-up, systemd, GPIO buttons, safe file writes."""
