"""The fleet: every kiosk's play log in one central PostgreSQL database.

``central`` makes and migrates the central schema and the kiosks' roles (run at the
office); ``sync`` is the kiosk's side, one pass of ``kiosk sync`` in its own process;
``state`` keeps that pass's cursor and last outcome in the data directory; ``connect``
turns the ``[fleet]`` section into a connection. docs/fleet.md explains the design.
"""
