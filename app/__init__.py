"""Coup referee: referees the card game Coup played with a real deck.

A tablet shows the public table; each player's phone holds that player's secret hand.
"""

__version__ = "0.1.0"
