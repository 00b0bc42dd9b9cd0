"""Pure poker rules: cards, hand evaluation, and the games the site runs.

Nothing here imports Django, reads a clock or a file, or uses the global random generator.
"""

from rules_engine.cards import Card, CardParseError, Deck, format_cards, parse_cards

__all__ = ["Card", "CardParseError", "Deck", "format_cards", "parse_cards"]
