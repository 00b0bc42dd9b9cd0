"""The errors the rules raise. All are ``ValueError``s with messages a player can read."""


class RulesError(ValueError):
    """An action or setup the rules do not allow. The state is left exactly as it was."""


class MalformedAction(RulesError):
    """The action could not be read (unknown name, bad amount, bad cards)."""


class IllegalAction(RulesError):
    """A well-formed action that the rules forbid right now."""


class OutOfTurn(RulesError):
    """It is not this seat's turn to act."""


class SetupError(RulesError):
    """A hand that cannot be dealt as asked (wrong number of players, bad stacks, ...)."""
