"""Edge cases E-15 .. E-29 of RULES.md §2: coins, the treasury, stealing, exchanges, the deck,
drawn replacements and losses."""

from __future__ import annotations

from scenario import coins, game, hand, kinds, refused, run

from app.engine import pending
from app.engine.rulings import render


def test_E15_affordability_and_a_refund_of_exactly_three():
    g = game({"A": ["duke", "captain"], "B": ["contessa", "assassin"], "C": ["duke", "captain"]})
    refused(g, "A assassinate B", "costs 3 coins")
    refused(g, "A coup B", "costs 7 coins")
    g = game({"A": ["duke", "captain"], "B": ["contessa", "assassin"], "C": ["duke", "captain"]},
             coins={"A": 3})
    g = run(g, "A assassinate B", "B challenge", "A concede", "A lose captain")
    assert coins(g)["A"] == 3


def test_E16_steal_from_one_coin_takes_one_and_from_zero_is_refused():
    g = game({"A": ["captain", "duke"], "C": ["captain", "contessa"], "B": ["contessa", "duke"]},
             coins={"B": 1})
    g = run(g, "A steal B", "pass", "B pass")
    assert coins(g)["A"] == 3 and coins(g)["B"] == 0
    refused(g, "C steal B", "no coins")


def test_E16_steal_from_zero_allowed_moves_nothing_but_can_be_challenged():
    g = game({"A": ["captain", "duke"], "B": ["contessa", "duke"], "C": ["duke", "captain"]},
             coins={"B": 0}, rules={"steal_from_zero": "allow"})
    g = run(g, "A steal B")
    assert ("C", "respond") in kinds(g)
    g = run(g, "pass", "B pass")
    assert coins(g)["A"] == 2


def test_E17_exchange_from_a_short_deck_draws_what_is_there():
    g = game({"A": ["ambassador", "duke"], "B": ["captain", "contessa"]},
             rules={"copies_per_character": 1})
    assert g.deck_size == 1
    g = run(g, "A exchange", "pass")
    assert [p.options["count"] for p in pending(g) if p.kind == "draw"] == [1]
    refused(g, "A draw assassin assassin", "A draws 1 card, not 2")
    g = run(g, "A draw assassin", "A keep assassin duke")
    assert hand(g, "A") == ["assassin", "duke"] and g.deck_size == 1


def test_E17_exchange_from_an_empty_deck_draws_nothing():
    g = game({"A": ["ambassador", "duke"], "B": ["captain", "contessa"], "C": ["assassin", "duke"],
              "D": ["ambassador", "captain"], "E": ["assassin", "contessa"]},
             rules={"copies_per_character": 2})
    assert g.deck_size == 0
    g = run(g, "A exchange", "pass", "A draw none", "A keep ambassador duke")
    assert g.current == "B"


def test_E18_exchange_with_one_influence_keeps_one_of_three():
    g = game({"A": ["ambassador"], "B": ["duke", "contessa"], "C": ["assassin", "captain"]},
             revealed={"A": ["captain"]})
    g = run(g, "A exchange", "pass", "A draw duke contessa")
    refused(g, "A keep duke contessa", "A keeps 1 card, not 2")
    g = run(g, "A keep duke")
    assert hand(g, "A") == ["duke"] and g.deck_size == 9


def test_E19_exchange_after_a_proven_ambassador_uses_the_new_hand():
    g = game({"A": ["ambassador", "duke"], "B": ["captain", "contessa"], "C": ["assassin", "duke"]})
    g = run(g, "A exchange", "C challenge", "A prove", "A draw captain", "C lose assassin",
            "A draw contessa ambassador")
    refused(g, "A keep ambassador ambassador", "only keep")
    g = run(g, "A keep duke ambassador")
    assert hand(g, "A") == ["ambassador", "duke"]


def test_E20_coins_go_back_at_the_end_of_the_turn_by_default():
    g = game({"A": ["captain", "duke"], "B": ["contessa"], "C": ["assassin", "ambassador"]},
             revealed={"B": ["duke"]}, coins={"B": 3})
    g = run(g, "A steal B", "B challenge", "A prove", "A draw ambassador")
    assert coins(g) == {"A": 4, "B": 0, "C": 2} and g.treasury == 44


def test_E20_coins_go_back_at_once_with_immediate_return():
    g = game({"A": ["captain", "duke"], "B": ["contessa"], "C": ["assassin", "ambassador"]},
             revealed={"B": ["duke"]}, coins={"B": 3},
             rules={"elimination_coin_return": "immediate"})
    g = run(g, "A steal B", "B challenge", "A prove", "A draw ambassador")
    assert coins(g) == {"A": 2, "B": 0, "C": 2} and g.treasury == 46


def test_E21_steal_target_out_by_its_challenge_is_still_robbed():
    g = game({"A": ["captain", "duke"], "B": ["contessa"], "C": ["assassin", "ambassador"]},
             revealed={"B": ["duke"]}, coins={"B": 3})
    g = run(g, "A steal B", "B challenge", "A prove", "A draw ambassador")
    assert any(r.rule == "E-21" for r in g.log)


def test_E22_target_who_catches_the_bluff_needs_no_block():
    g = game({"A": ["duke", "contessa"], "B": ["captain", "duke"], "C": ["duke", "captain"]})
    g = run(g, "A steal B", "B challenge", "A concede", "A lose duke")
    assert g.current == "B" and coins(g) == {"A": 2, "B": 2, "C": 2}


def test_E23_a_block_during_the_challenge_window_is_too_early():
    g = game({"A": ["assassin", "duke"], "B": ["contessa", "duke"], "C": ["duke", "captain"]},
             coins={"A": 3})
    g = run(g, "A assassinate B")
    refused(g, "B block contessa", "Too early")


def test_E24_income_and_coup_take_no_response_foreign_aid_no_challenge():
    g = game({"A": ["duke", "captain"], "B": ["contessa", "duke"], "C": ["duke", "captain"]},
             coins={"A": 7})
    g = run(g, "A income")
    assert g.current == "B"
    g = run(g, "B foreign_aid")
    refused(g, "C challenge", "no claim")
    g = run(g, "pass", "C income", "A coup B")
    assert kinds(g) == [("B", "lose")]


def test_E25_a_player_with_no_coins_has_every_free_action():
    g = game({"A": ["duke", "captain"], "B": ["contessa", "duke"], "C": ["duke", "captain"]},
             coins={"A": 0})
    actions = {a["action"]: a["reason"] for a in pending(g)[0].options["actions"]}
    assert [a for a, r in actions.items() if r is None] == [
        "income", "foreign_aid", "tax", "steal", "exchange"]


def test_E26_a_treasury_that_runs_dry_pays_what_it_has():
    g = game({"A": ["duke", "captain"], "B": ["contessa", "duke"], "C": ["duke", "captain"]},
             coins={"A": 10, "B": 9, "C": 9}, rules={"coins_in_box": 30})
    g = game({"A": ["duke", "captain"], "B": ["contessa", "duke"], "C": ["duke", "captain"]},
             coins={"A": 9, "B": 9, "C": 10}, rules={"coins_in_box": 30})
    g = run(g, "A tax", "pass")
    assert coins(g)["A"] == 11 and g.treasury == 0
    assert any(r.rule == "E-26" for r in g.log)


def test_E27_the_replacement_is_drawn_and_must_be_possible():
    g = game({"A": ["duke", "duke"], "B": ["duke", "captain"], "C": ["captain", "captain"]})
    g = run(g, "A tax", "B challenge", "A prove")
    refused(g, "A draw captain", "accounted for")
    g = run(g, "A draw duke", "B lose captain")
    assert hand(g, "A") == ["duke", "duke"]


def test_E27_a_draw_of_more_copies_than_can_be_unseen_says_how_many_can():
    """Two Contessas drawn when one copy is unaccounted for: refused, and the refusal says one
    can be in the deck (not that every copy is accounted for); one Contessa is accepted."""
    g = game({"A": ["ambassador", "captain"], "B": ["contessa", "contessa"],
              "C": ["captain", "captain"]})
    g = run(g, "A exchange", "pass")
    error = refused(g, "A draw contessa contessa", "Only 1 Contessa can be in the court deck")
    assert "every copy" not in render(error.text, error.params, count=error.count)
    refused(g, "A draw captain duke", "every copy is accounted for")
    run(g, "A draw contessa duke")


def test_E28_lost_cards_stay_face_up_and_never_return_to_the_deck():
    g = game({"A": ["duke", "captain"], "B": ["contessa", "duke"], "C": ["duke", "captain"]},
             coins={"A": 7})
    g = run(g, "A coup B", "B lose duke")
    assert g.deck_size == 9 and g.player("B").revealed == ("duke",)


def test_E29_two_losses_in_one_turn_are_resolved_one_at_a_time():
    g = game({"A": ["assassin", "duke"], "B": ["captain", "ambassador"], "C": ["duke", "captain"]},
             coins={"A": 3})
    g = run(g, "A assassinate B", "B challenge", "A prove", "A draw ambassador")
    assert kinds(g, "B") == [("B", "lose")]
    g = run(g, "B lose captain", "B pass")
    assert g.player("B").revealed == ("captain", "ambassador")
