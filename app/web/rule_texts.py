"""Every rule code (E-1 to E-40) in plain words: the texts of the Rules page
(:mod:`app.web.rulebook` shows them). Card and action names are placeholders (``%(duke)s``,
``%(steal)s``), filled in with the names of the table's box; ``settings`` names the rule
settings whose choice the page shows beside the rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.rulings import N_


@dataclass(frozen=True)
class Rule:
    code: str
    title: str  # a template, translated when shown
    text: str  # a template, with card and action names as placeholders
    settings: tuple[str, ...] = ()  # the rule settings that change it


RULES: tuple[Rule, ...] = (
    # TRANSLATORS: the Rules page: a rule's title.
    Rule("E-1", N_("The target challenges, loses, and may still block"),
         # TRANSLATORS: the Rules page: a rule explained. contessa, captain: card names
         # (nominative); assassinate, steal: action names.
         N_(
             "The target loses an influence for the failed challenge, and the action still "
             "goes ahead: an %(assassinate)s may cost a second one. A target who still has a "
             "card may block the action as usual, say the %(assassinate)s with the "
             "%(contessa)s or a %(steal)s with the %(captain)s (the publisher’s answer; a "
             "table setting can forbid it)."),
         ("target_who_challenged_may_block",)),
    # TRANSLATORS: the Rules page: a rule's title. contessa: a card name (nominative).
    Rule("E-2", N_("The target bluffs the %(contessa)s and is caught"),
         # TRANSLATORS: the Rules page: a rule explained. contessa: a card name (nominative);
         # assassinate: an action name.
         N_(
             "A target who blocks an %(assassinate)s with the %(contessa)s and can’t show it "
             "loses one influence for the failed block; the block fails, so the "
             "%(assassinate)s takes another. A player with two cards loses both and is out.")),
    Rule("E-3", N_("The target is out before the action takes effect"),
         # TRANSLATORS: the Rules page: a rule explained. assassinate, examine: action names.
         N_(
             "If the target lost the last card earlier in the turn, the %(assassinate)s or "
             "%(examine)s has nothing left to do. The 3 coins paid for an %(assassinate)s stay "
             "spent: the claim was not caught as a bluff. Nobody can block for a player who "
             "is out."),
         ("anyone_may_block_targeted",)),
    # TRANSLATORS: the Rules page: a rule's title. assassin: a card name (nominative).
    Rule("E-4", N_("Another player challenges the %(assassin)s"),
         # TRANSLATORS: the Rules page: a rule explained. assassin: a card name (nominative); steal:
         # an action name.
         N_(
             "If the %(assassin)s is shown, the challenger loses an influence and the target "
             "may still block, even after letting the challenge pass: a pass counts only for "
             "the question it answered. The same goes for a %(steal)s. If the %(assassin)s is "
             "not shown, the actor loses an influence, gets the 3 coins back, and the target "
             "is untouched."),
         ("refund_on_successful_challenge",)),
    Rule("E-5", N_("A challenger loses the last card"),
         N_(
             "A challenger who loses the last card is out at once. The action or block that "
             "was challenged carries on as if nobody had challenged it.")),
    Rule("E-6", N_("The acting player is out during the turn"),
         N_(
             "This happens only when the actor’s own claim is caught as a bluff, or the actor "
             "challenges a block and loses. The action never takes effect, and play passes "
             "clockwise to the next player still in the game.")),
    Rule("E-7", N_("Out means out, at once"),
         N_(
             "A player with no face-down card left takes no further part: no challenge, no "
             "block, and the referee doesn’t ask. As soon as one player is left, that player "
             "wins, even in the middle of a turn, and nothing still pending happens.")),
    Rule("E-8", N_("Not showing the card"),
         N_(
             "A challenged player may always decline to show the card, even one they hold, to "
             "keep the hand secret. Declining loses the challenge, just as a bluff does.")),
    Rule("E-9", N_("Who may block"),
         # TRANSLATORS: the Rules page: a rule explained. duke: a card name (nominative); steal,
         # assassinate, foreign_aid: action names.
         N_(
             "Only the target may block a %(steal)s or an %(assassinate)s. %(foreign_aid)s has "
             "no target: any other player may block it by claiming the %(duke)s."),
         ("anyone_may_block_targeted",)),
    Rule("E-10", N_("Several challengers at once"),
         # TRANSLATORS: the Rules page: a rule explained. foreign_aid: an action name.
         N_(
             "A claim is challenged only once. The first clear challenge counts; if two come "
             "truly together, the one sitting nearest clockwise from the claimant counts. Only "
             "that challenger risks an influence. The same goes for several blocks of one "
             "%(foreign_aid)s. On the tablet, the first one tapped counts.")),
    Rule("E-11", N_("One block per action"),
         # TRANSLATORS: the Rules page: a rule explained. foreign_aid: an action name.
         N_(
             "Once a block has failed (its claim was challenged and not shown), the action goes "
             "ahead and nobody else may block it. A table setting lets another player block a "
             "%(foreign_aid)s again."),
         ("reblock_foreign_aid",)),
    Rule("E-12", N_("The acting player may challenge a block"),
         N_(
             "Anyone but the blocker may challenge a block, the player whose action was "
             "blocked included.")),
    Rule("E-13", N_("A proven block also gets a new card"),
         N_(
             "A player who shows the claimed card, for a block as for an action, puts it back "
             "into the court deck and draws a new card. Officially the deck is shuffled and "
             "the new card drawn at once; in the La Mame 2015 rules the card goes to the "
             "bottom and the new one is drawn from the top at the end of the turn."),
         ("proof_replacement",)),
    # TRANSLATORS: the Rules page: a rule's title. coup: an action name.
    Rule("E-14", N_("Ten coins: a forced %(coup)s"),
         # TRANSLATORS: the Rules page: a rule explained. coup, convert, embezzle: action names.
         N_(
             "A player who starts the turn with 10 coins or more must declare the %(coup)s and "
             "nothing else (no %(convert)s or %(embezzle)s either). It is checked only at the "
             "start of the player’s own turn: coins won later force nothing until the next "
             "turn, and coins lost before then lift it. With 10 coins a player may still "
             "challenge and block on other turns.")),
    # TRANSLATORS: the Rules page: a rule's title. coup, assassinate: action names.
    Rule("E-15", N_("Paying for a %(coup)s or an %(assassinate)s"),
         # TRANSLATORS: the Rules page: a rule explained. coup, assassinate: action names.
         N_(
             "A %(coup)s needs 7 coins and an %(assassinate)s 3 when declared; they are paid at "
             "once. An %(assassinate)s caught as a bluff is cancelled and gives the 3 coins "
             "back, unless the table’s rules say otherwise. A blocked one never does."),
         ("refund_on_successful_challenge",)),
    # TRANSLATORS: the Rules page: a rule's title. steal: an action name.
    Rule("E-16", N_("A %(steal)s from a player with 1 coin or none"),
         # TRANSLATORS: the Rules page: a rule explained. steal: an action name.
         N_(
             "A %(steal)s takes 2 coins, or 1 if that is all the target has. A player with no "
             "coins can’t be its target; a table setting allows it, and then it takes nothing "
             "but can still be challenged and blocked."),
         ("steal_from_zero",)),
    # TRANSLATORS: the Rules page: a rule's title. exchange: an action name.
    Rule("E-17", N_("An %(exchange)s from a short deck"),
         # TRANSLATORS: the Rules page: a rule explained. exchange: an action name.
         N_(
             "With the official card counts the court deck always holds at least 3 cards. A "
             "house deck too small for the players can run short: the %(exchange)s then draws "
             "what the deck holds and returns as many. Lost cards never go back into the "
             "deck."),
         ("exchanger",)),
    # TRANSLATORS: the Rules page: a rule's title. exchange: an action name.
    Rule("E-18", N_("An %(exchange)s with one influence"),
         # TRANSLATORS: the Rules page: a rule explained. exchange: an action name.
         N_(
             "An %(exchange)s keeps as many cards as the player had face down: with one, the "
             "player keeps 1 of that card and the drawn ones and returns the others; with two, "
             "keeps 2."),
         ("ambassador_max_swap",)),
    # TRANSLATORS: the Rules page: a rule's title. exchange: an action name; exchanger: the card
    # that exchanges at this table (the Ambassador, or the Inquisitor), nominative.
    Rule("E-19", N_("An %(exchange)s after the %(exchanger)s is proven"),
         # TRANSLATORS: the Rules page: a rule explained. exchanger: the card that exchanges at
         # this table (the Ambassador, or the Inquisitor), nominative; exchange: an action name.
         N_(
             "If the %(exchanger)s is challenged and shown, it goes back into the deck and the "
             "player draws a new card first; then the %(exchange)s happens as usual with the "
             "new hand.")),
    Rule("E-20", N_("When an eliminated player’s coins go back"),
         # TRANSLATORS: the Rules page: a rule explained. steal: an action name.
         N_(
             "A player who is out returns their coins to the treasury at the end of the turn, "
             "after the action resolves: the rulebook’s own example lets a %(steal)s still "
             "take from a blocker who was just knocked out. A table setting returns them at "
             "once instead."),
         ("elimination_coin_return",)),
    # TRANSLATORS: the Rules page: a rule's title. steal: an action name.
    Rule("E-21", N_("A %(steal)s from a player knocked out this turn"),
         # TRANSLATORS: the Rules page: a rule explained. steal: an action name.
         N_(
             "If the target of a %(steal)s loses the last card in a challenge during it, the "
             "%(steal)s still takes up to 2 of their coins before the rest go back to the "
             "treasury."),
         ("elimination_coin_return",)),
    Rule("E-22", N_("Nothing to block after a winning challenge"),
         N_(
             "If the target challenges the action and the actor can’t show the card, the "
             "action is cancelled, so there is nothing left to block.")),
    Rule("E-23", N_("A block called too early"),
         N_(
             "Blocks come after the action’s challenge is settled. A player who wants to block "
             "while the action may still be challenged waits: the block is taken once the "
             "block window opens, and until then anyone may still challenge.")),
    Rule("E-24", N_("What can’t be challenged or blocked"),
         # TRANSLATORS: the Rules page: a rule explained. duke: a card name (nominative); income,
         # coup, foreign_aid: action names.
         N_(
             "%(income)s and %(coup)s can be neither challenged nor blocked. %(foreign_aid)s "
             "can be blocked, with the %(duke)s, but not challenged: it claims no character.")),
    Rule("E-25", N_("A player with no coins"),
         N_(
             "A player with no coins is still in the game and may take any action that costs "
             "nothing.")),
    Rule("E-26", N_("The treasury runs out"),
         N_(
             "The rulebooks don’t say. Here the treasury is the coins in the box that no "
             "player holds and that are not on the Treasury Reserve; a payout it can’t cover "
             "pays what is left. It matters only with a small box."),
         ("coins_in_box",)),
    Rule("E-27", N_("The new card is random"),
         N_(
             "The card drawn after showing a challenged card comes from the shuffled deck; the "
             "player doesn’t choose it.")),
    Rule("E-28", N_("Lost cards stay face up"),
         N_(
             "A lost influence is turned face up and stays in front of its owner for the rest "
             "of the game, for everyone to see. It never goes back into the deck and proves "
             "nothing any more.")),
    Rule("E-29", N_("Losing two influences in one turn"),
         N_(
             "Losses are settled one at a time: the player picks the card for the first, and "
             "the second takes the card that is left.")),
    # TRANSLATORS: the Rules page: a rule's title. examine: an action name; inquisitor: a card name
    # (nominative).
    Rule("E-30", N_("%(examine)s by the %(inquisitor)s"),
         # TRANSLATORS: the Rules page: a rule explained. inquisitor: a card name (nominative);
         # examine: an action name.
         N_(
             "The target picks which face-down card to show, and only the %(inquisitor)s sees "
             "it. The %(inquisitor)s then hands it back or makes the target replace it: the "
             "target first draws a new card, then the shown card goes into the deck. Everyone "
             "sees whether it was replaced. %(examine)s can be challenged but not blocked. "
             "Some boxes always replace the card; on Board Game Arena the %(inquisitor)s picks "
             "a card blind."),
         ("examine_shown_by", "examine_swap")),
    # TRANSLATORS: the Rules page: a rule's title. steal: an action name; inquisitor: a card name
    # (nominative).
    Rule("E-31", N_("Blocking a %(steal)s in a game with the %(inquisitor)s"),
         # TRANSLATORS: the Rules page: a rule explained. inquisitor, ambassador, captain: card
         # names (nominative); steal: an action name.
         N_(
             "The %(inquisitor)s takes the place of the %(ambassador)s: the target blocks a "
             "%(steal)s with the %(captain)s or the %(inquisitor)s. No %(ambassador)s is in that "
             "deck, so nobody may claim one."),
         ("exchanger",)),
    Rule("E-32", N_("Reformation: sides, and everyone on one side"),
         # TRANSLATORS: the Rules page: a rule explained. coup, assassinate, steal, examine,
         # convert, foreign_aid: action names.
         N_(
             "While both sides are in the game, a player may not aim the %(coup)s, the "
             "%(assassinate)s, the %(steal)s or the %(examine)s at a player of their own side, "
             "nor block that player’s %(foreign_aid)s. As soon as everyone still in the game is on "
             "one side, these limits are lifted; a %(convert)s that splits them again brings them "
             "back."),
         ("reformation",)),
    Rule("E-33", N_("Reformation: challenges ignore sides"),
         N_("Anyone may challenge anyone, their own side included."),
         ("reformation",)),
    # TRANSLATORS: the Rules page: a rule's title. foreign_aid: an action name.
    Rule("E-34", N_("Reformation: blocking %(foreign_aid)s"),
         # TRANSLATORS: the Rules page: a rule explained. foreign_aid: an action name.
         N_(
             "Only a player of the other side may block %(foreign_aid)s, unless everyone still "
             "in the game is on one side."),
         ("reformation",)),
    # TRANSLATORS: the Rules page: a rule's title. embezzle: an action name; duke: a card name
    # (nominative).
    Rule("E-35", N_("%(embezzle)s while holding the %(duke)s"),
         # TRANSLATORS: the Rules page: a rule explained. embezzle: an action name; duke: a card
         # name (nominative).
         N_(
             "%(embezzle)s claims that the player holds no %(duke)s. A player who does hold one "
             "can only concede when challenged, and loses an influence of their choice, so "
             "the %(duke)s may stay hidden; the Treasury Reserve keeps its coins. A table "
             "setting (Board Game Arena’s rule) makes the %(duke)s the card lost."),
         ("reformation", "embezzle_caught_loses_duke")),
    # TRANSLATORS: the Rules page: a rule's title. embezzle: an action name; duke: a card name
    # (nominative).
    Rule("E-36", N_("%(embezzle)s challenged, and no %(duke)s"),
         # TRANSLATORS: the Rules page: a rule explained. duke: a card name (nominative); embezzle:
         # an action name.
         N_(
             "The player proves the claim by showing every face-down card, none of them a "
             "%(duke)s. All the shown cards are shuffled into the deck and as many new ones "
             "drawn. The challenger loses an influence and the %(embezzle)s goes ahead."),
         ("reformation",)),
    # TRANSLATORS: the Rules page: a rule's title. embezzle: an action name.
    Rule("E-37", N_("%(embezzle)s with an empty Treasury Reserve"),
         N_("Allowed; it takes nothing."),
         ("reformation",)),
    # TRANSLATORS: the Rules page: a rule's title. convert: an action name.
    Rule("E-38", N_("%(convert)s: changing sides"),
         # TRANSLATORS: the Rules page: a rule explained. convert, coup: action names.
         N_(
             "%(convert)s costs 1 coin to change your own side and 2 to change another "
             "player’s, paid onto the Treasury Reserve. It claims no character, so it can’t be "
             "challenged or blocked, and it may aim at anyone. It is not allowed on a turn "
             "that must be a %(coup)s."),
         ("reformation",)),
    Rule("E-39", N_("Treasury Reserve or treasury"),
         # TRANSLATORS: the Rules page: a rule explained. convert, coup, assassinate: action names.
         N_(
             "Only %(convert)s payments go onto the Treasury Reserve. Coins paid for a %(coup)s "
             "or an %(assassinate)s, and an eliminated player’s coins, go to the treasury."),
         ("reformation",)),
    Rule("E-40", N_("Several losses waiting"),
         N_(
             "When a turn owes more than one loss, they are asked for in the order they arose: "
             "the lost challenge first, then the lost challenge of a block, then the action’s "
             "own effect.")),
)

__all__ = ["RULES", "Rule"]
