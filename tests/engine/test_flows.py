"""Settings and flows the records don't reach: La Mame replacement, untracked hands, the
choose-hand set-up, max swap, errors that say what would be legal, and what `pending` offers."""

from __future__ import annotations

from scenario import coins, game, hand, refused, run

from app.engine import pending, seat_view, table_view, waiting
from app.engine.rulings import render

THREE = {"A": ["duke", "captain"], "B": ["contessa", "assassin"], "C": ["ambassador", "captain"]}


def test_errors_say_what_was_wrong_and_what_is_legal():
    g = game(THREE, coins={"B": 6})
    assert str(refused(g, "B income")) == "It is A’s turn, not B’s."
    g = run(g, "A income")
    assert str(refused(g, "B coup A")) == (
        "B can’t declare the Coup: it costs 7 coins and B has 6 (E-15).")
    g = run(g, "B tax")
    assert str(refused(g, "B lose duke")) == (
        "B has no influence to lose now. Waiting for A, C to challenge or let it stand."
    )


def test_bottom_at_end_of_turn_replaces_after_the_action():
    g = game({"A": ["duke", "captain"], "B": ["contessa", "assassin"], "C": ["duke", "duke"]},
             rules={"preset": "la_mame_ru_2015"})
    g = run(g, "A tax", "B challenge", "A prove")
    refused(g, "A draw duke", "no card to draw")
    g = run(g, "B lose assassin")
    assert coins(g)["A"] == 5 and [p.kind for p in pending(g)] == ["draw"]
    refused(g, "A draw duke", "accounted for")  # the proven Duke went to the bottom
    g = run(g, "A draw assassin")
    assert hand(g, "A") == ["assassin", "captain"] and g.current == "B"


def test_bottom_at_end_of_turn_does_not_replace_a_card_exchanged_away():
    g = game({"A": ["ambassador", "captain"], "B": ["contessa", "assassin"], "C": ["duke", "duke"]},
             rules={"proof_replacement": "bottom_at_end_of_turn"})
    g = run(g, "A exchange", "B challenge", "A prove", "B lose assassin",
            "A draw duke contessa", "A keep duke captain")
    assert g.turn is None and g.current == "B" and hand(g, "A") == ["captain", "duke"]


def test_la_mame_keeps_the_cost_of_a_caught_assassin():
    g = game(THREE, coins={"A": 3}, rules={"preset": "la_mame_ru_2015"})
    g = run(g, "A assassinate B", "C challenge", "A concede", "A lose captain")
    assert coins(g)["A"] == 0


def test_untracked_hands_take_the_referees_word():
    g = game({"A": None, "B": ["contessa", "assassin"], "C": ["duke", "captain"]})
    g = run(g, "A tax", "B challenge", "A prove")
    refused(g, "A draw duke", "not tracked")
    g = run(g, "A draw -", "B lose assassin")
    assert g.player("A").face_down == 2 and coins(g)["A"] == 5
    g = run(g, "B income", "C income", "A exchange", "pass", "A draw -", "A keep -")
    assert g.deck_size == 9 and g.current == "B"


def test_an_untracked_player_always_names_the_card_turned_up():
    g = game({"A": ["duke", "captain"], "B": None, "C": ["duke", "captain"]}, coins={"A": 7},
             revealed={"B": ["duke"]})
    g = run(g, "A coup B")
    assert [p.kind for p in pending(g)] == ["lose"]
    refused(g, "B lose duke", "accounted for")
    g = run(g, "B lose contessa")
    assert g.player("B").out


def test_choose_hand_set_up():
    g = game({"A": ["duke", "contessa"], "B": ["captain", "assassin"]},
             rules={"two_player_setup": "choose_hand"},
             court_deck=["duke", "captain", "ambassador"])
    assert g.deck_size == 3 and coins(g) == {"A": 1, "B": 2}
    g = run(g, "A tax", "B challenge", "A prove")
    refused(g, "A draw contessa", "accounted for")
    run(g, "A draw ambassador")


def test_choose_hand_hands_must_hold_a_card_missing_from_the_court_deck():
    import pytest

    from app.engine import RuleError
    with pytest.raises(RuleError, match="missing from the court deck"):
        game({"A": ["duke", "captain"], "B": ["captain", "assassin"]},
             rules={"two_player_setup": "choose_hand"},
             court_deck=["duke", "captain", "ambassador"])


def test_ambassador_max_swap_one():
    g = game({"A": ["ambassador", "captain"], "B": ["contessa", "assassin"], "C": ["duke", "duke"]},
             rules={"ambassador_max_swap": 1})
    g = run(g, "A exchange", "pass", "A draw contessa assassin")
    refused(g, "A keep contessa assassin", "at most 1")
    g = run(g, "A keep contessa captain")
    assert hand(g, "A") == ["captain", "contessa"]


def test_pending_offers_every_action_with_its_reason():
    g = game(THREE, coins={"A": 2})
    [prompt] = pending(g)
    reasons = {a["action"]: a["reason"] for a in prompt.options["actions"]}
    assert reasons["coup"] == "A can’t declare the Coup: it costs 7 coins and A has 2 (E-15)."
    assert reasons["income"] is None and "examine" not in reasons
    g = game(THREE, coins={"A": 10})
    actions = pending(g)[0].options["actions"]
    assert [a["action"] for a in actions if a["reason"] is None] == ["coup"]
    assert "Coup is the only choice" in next(a["reason"] for a in actions if a["action"] == "tax")


def test_answer_prompt_tells_the_owner_whether_they_hold_the_card():
    g = run(game(THREE), "A tax", "B challenge")
    [answer] = [p for p in seat_view(g, "A")["prompts"]]
    assert answer.kind == "prove" and answer.options["holds"] is True
    assert seat_view(g, "B")["prompts"] == []
    assert ("A", "prove") in table_view(g)["waiting"]


def test_waiting_is_one_sentence_for_the_table():
    g = run(game(THREE), "A tax", "B challenge")
    assert render(waiting(g).text, waiting(g).params) == (
        "Waiting for A to prove the Duke or concede."
    )


def test_larger_tables_use_four_and_five_copies():
    import pytest

    from app.engine import RuleError
    seven = {f"P{i}": None for i in range(7)}
    assert game(seven).deck_size == 4 * 5 - 14
    assert game({f"P{i}": None for i in range(9)}).deck_size == 5 * 5 - 18
    with pytest.raises(RuleError, match="7 players need at least 4 copies"):
        game(seven, rules={"copies_per_character": 3})


def test_each_preset_plays_by_its_edition():
    """Each box's preset changes play as its rulebook says (FORMAT.md presets), and a key
    given beside a preset overrides it."""
    inquisitor = {"A": ["inquisitor", "duke"], "B": ["contessa", "assassin"],
                  "C": ["captain", "duke"]}
    # La Mame 2015: no refund for a caught Assassin; the proven card is replaced at the end of
    # the turn; the examined card is always replaced.
    g = run(game(THREE, coins={"A": 3}, rules={"preset": "la_mame_ru_2015"}),
            "A assassinate B", "C challenge", "A concede", "A lose captain")
    assert coins(g)["A"] == 0
    g = run(game(inquisitor, rules={"preset": "la_mame_ru_2015", "exchanger": "inquisitor"}),
            "A examine B", "pass", "B show assassin")
    refused(g, "A return", "always replaced")
    # ... unless the table says otherwise beside the preset.
    g = run(game(inquisitor, rules={"preset": "la_mame_ru_2015", "exchanger": "inquisitor",
                                    "examine_swap": "optional"}),
            "A examine B", "pass", "B show assassin", "A return")
    assert g.turn is None
    # Mosigra: the examined card is always replaced too, but a caught Assassin is refunded.
    g = run(game(inquisitor, rules={"preset": "mosigra_ru", "exchanger": "inquisitor"}),
            "A examine B", "pass", "B show assassin")
    refused(g, "A return", "always replaced")
    g = run(game(THREE, coins={"A": 3}, rules={"preset": "mosigra_ru"}),
            "A assassinate B", "C challenge", "A concede", "A lose captain")
    assert coins(g)["A"] == 3
    # UA steampunk: a box of 30 coins.
    assert game(THREE, rules={"preset": "ua_steampunk"}).treasury == 30 - 6
    # BGA: the examiner picks the card blind.
    g = run(game(inquisitor, rules={"preset": "bga", "exchanger": "inquisitor"}),
            "A examine B", "pass")
    refused(g, "B show assassin", "no card to show")
    run(g, "A show contessa")
