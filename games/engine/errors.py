"""The engine's one error type, apart from the value types so that every engine module
(the texts reader too, which :mod:`games.engine.model` uses) can raise it without a circle."""


class GameError(ValueError):
    """Bad input from outside: unknown game, bad option, malformed saved game, bad move text."""
