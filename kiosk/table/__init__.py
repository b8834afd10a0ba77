"""The touch table: one game's controller, its drawing, its cards and what a touch means."""
