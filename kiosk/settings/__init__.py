"""What the operator sets: the configuration file, the menu's overrides, the PIN and its lock."""
