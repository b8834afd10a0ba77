"""The kiosk's screens: welcome, game picker, table (with rules, win and no-more-moves)."""
