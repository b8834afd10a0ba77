"""The kiosk: the Kivy touch table, buttons, play log and the ``kiosk`` command line."""

__version__ = "0.1.0"
