"""The explorer: games nobody thought of, step by step, checking the engine as it goes.

Never used by the referee itself: the property tests, the coverage test and `bench/explore.py`
drive it. At each state it offers *every* legal step the engine's `pending` describes (each
eligible player's own pass, the table's pass, every challenge, a block as each character,
every private step with every card choice the table could make), and a chooser picks one: a
seeded `random.Random`, or hypothesis (`st.data()`), so that a failing game shrinks to a short
one. Set-ups range over every rule setting, every preset, 2-10 players, tracked and untracked
hands, short decks and small boxes of coins.

After every step `check` asserts the invariants: coins and cards conserved; `pending` offers a
step if and only if `apply` accepts it (for near-miss steps made by changing one field of a
legal one, and for steps refused only because every copy of a card is accounted for); what a
seat's screen is given never depends on another seat's hidden cards; and at the end, the
exported record replays to the same state.

`Coverage` counts, for each window and step kind (and each setting that changes that step),
how often it was reached, and which rulings were given.
"""

from .checks import (
    check_conservation,
    check_offers,
    check_pass_is_local,
    check_privacy,
    check_replay,
    check_rules,
)
from .coverage import Coverage, reachable, ruling_templates
from .run import (
    Exploration,
    directed_chooser,
    explore,
    forces_for,
    run,
    run_until_covered,
)
from .setups import Chooser, Step, random_rules, random_setup, rng_chooser
from .steps import counted_out, legal_steps, near_misses

__all__ = [
    "Chooser",
    "Coverage",
    "Exploration",
    "Step",
    "check_conservation",
    "check_offers",
    "check_pass_is_local",
    "check_privacy",
    "check_replay",
    "check_rules",
    "counted_out",
    "directed_chooser",
    "explore",
    "forces_for",
    "legal_steps",
    "near_misses",
    "random_rules",
    "random_setup",
    "reachable",
    "rng_chooser",
    "ruling_templates",
    "run",
    "run_until_covered",
]
