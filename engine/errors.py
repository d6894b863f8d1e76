"""The engine's typed errors. Every message is written for the player who caused it."""


class EngineError(Exception):
    """Base of everything the engine refuses."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class MalformedAction(EngineError):
    """The action is not of the schema of record.md (unknown type, missing or extra field)."""


class NotYourTurn(EngineError):
    """The seat has nothing to do now."""


class IllegalAction(EngineError):
    """Well-formed and in turn, but the rules forbid it (a card not in hand, a revoke, ...)."""


class BadDeal(EngineError):
    """A pack, kitty or dealer that cannot start a deal."""


class BadOptions(EngineError):
    """Unknown option, or a value the option does not take."""
