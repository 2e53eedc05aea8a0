"""Edge cases as the table is told them: the two flow bugs of issue 9 (records 35 and 36), the
questions, waiting lines and log lines that name an edge case, and what an independent
replayer found."""

from __future__ import annotations

from scenario import coins, game, kinds, refused, run

from app.engine import pending, table_view, waiting
from app.engine.rulings import render

# --- issue 9: the two flow bugs (records 35 and 36) and what the table is told ------------


def test_E4_a_pass_binds_only_its_window_the_target_may_block_after_a_third_party_challenge():
    g = game({"A": ["captain", "duke"], "B": ["captain", "contessa"],
              "C": ["assassin", "contessa"]})
    g = run(g, "A steal B", "B pass", "C challenge", "A prove", "C lose assassin",
            "A draw captain")
    assert kinds(g) == [("B", "block")]
    g = run(g, "B block captain", "pass")
    assert coins(g) == {"A": 2, "B": 2, "C": 2}


def test_E4_E11_a_pass_on_the_blocks_challenge_does_not_bar_a_new_block():
    g = game({"A": ["captain", "contessa"], "B": ["captain", "ambassador"],
              "C": ["duke", "duke"], "D": ["assassin", "contessa"]},
             rules={"reblock_foreign_aid": True})
    g = run(g, "A foreign_aid", "B block duke", "C pass", "A challenge", "B concede",
            "B lose captain")
    assert sorted(kinds(g)) == [("C", "block"), ("D", "block")]
    g = run(g, "C block duke", "pass")
    assert coins(g)["A"] == 2


def test_E3_no_block_window_for_a_dead_target_even_when_anyone_may_block():
    g = game({"A": ["assassin", "captain"], "B": ["duke"], "C": ["contessa", "captain"]},
             revealed={"B": ["contessa"]}, coins={"A": 3},
             rules={"anyone_may_block_targeted": True})
    g = run(g, "A assassinate B", "B challenge", "A prove", "A draw assassin")
    assert g.player("B").out and g.turn is None and g.current == "C"
    refused(g, "C block contessa")


def test_E34_anyone_may_block_targeted_spares_the_actors_own_side():
    g = game({"A": ["captain", "duke"], "B": ["captain", "contessa"], "C": ["captain", "duke"],
              "D": ["contessa", "assassin"]},
             rules={"reformation": True, "anyone_may_block_targeted": True})
    g = run(g, "A steal B", "pass")
    assert sorted(kinds(g)) == [("B", "block"), ("D", "block")]  # C is on A's side
    refused(g, "C block captain", "side")


def question(g, kind="respond"):
    [options] = [p.options for p in pending(g) if p.kind == kind][:1]
    return render(options["question"].text, options["question"].params)


def test_E36_the_embezzle_window_asks_about_holding_no_duke():
    g = game({"A": ["captain", "contessa"], "B": ["duke", "assassin"], "C": ["ambassador", "duke"]},
             rules={"reformation": True}, reserve=2)
    g = run(g, "A embezzle")
    assert question(g) == "Does anyone challenge A’s claim to hold no Duke?"
    g2 = run(game({"A": ["duke", "captain"], "B": ["captain", "contessa"],
                   "C": ["duke", "captain"]}), "A tax")
    assert question(g2) == "Does anyone challenge A’s Duke?"


def test_E13_a_la_mame_proof_tells_the_prover_to_put_the_card_at_the_bottom():
    g = game({"A": ["duke", "captain"], "B": ["contessa", "assassin"], "C": ["duke", "duke"]},
             rules={"preset": "la_mame_ru_2015"})
    g = run(g, "A tax", "B challenge", "A prove", "B lose assassin")
    [draw] = [p for p in pending(g) if p.kind == "draw"]
    instruction = draw.options["instruction"]
    assert render(instruction.text, instruction.params, count=instruction.count) == (
        "Put the shown card at the bottom of the court deck, then draw the top card.")
    g = game({"A": ["duke", "captain"], "B": ["contessa", "assassin"], "C": ["duke", "duke"]})
    g = run(g, "A tax", "B challenge", "A prove")
    [draw] = [p for p in pending(g) if p.kind == "draw"]
    instruction = draw.options["instruction"]
    assert render(instruction.text, instruction.params) == (
        "Shuffle the Duke into the court deck, then draw a new card.")


def test_E15_a_greyed_out_action_gives_the_coins_before_the_sides():
    g = game({"A": ["captain", "duke"], "B": ["assassin", "contessa"], "C": ["captain", "duke"]},
             rules={"reformation": True})  # A and C are Loyalists, B a Reformist
    g = run(g, "A income")
    [prompt] = pending(g)
    reasons = {a["action"]: a["error"] for a in prompt.options["actions"]}
    assert reasons["coup"].code == "cannot_pay" and reasons["assassinate"].code == "cannot_pay"
    g = game({"A": ["captain", "duke"], "B": ["assassin", "contessa"], "C": ["captain", "duke"]},
             rules={"reformation": True}, coins={"B": 0})
    [prompt] = pending(g)
    steal = next(a for a in prompt.options["actions"] if a["action"] == "steal")
    assert steal["targets"] == [] and steal["error"].code == "no_coins_to_steal"
    assert render(steal["error"].brief, {}) == "no one on the other side has coins"


def test_E2_conceding_a_bluffed_contessa_states_that_it_costs_both_cards():
    g = game({"A": ["assassin", "duke"], "B": ["captain", "duke"], "C": ["duke", "captain"]},
             coins={"A": 3})
    g = run(g, "A assassinate B", "pass", "B block contessa", "A challenge")
    [answer] = [p for p in pending(g) if p.kind == "prove"]
    cost = answer.options["concede"]
    assert render(cost.text, cost.params) == (
        "Concede: B loses an influence, then the Assassinate takes the other one: B is out.")
    assert cost.rule == "E-2"
    g = run(game(THREE_TAX), "A tax", "B challenge")
    [answer] = [p for p in pending(g) if p.kind == "prove"]
    assert render(answer.options["concede"].text, answer.options["concede"].params) == (
        "Concede: A loses an influence and the Tax is cancelled.")


THREE_TAX = {"A": ["duke", "captain"], "B": ["contessa", "assassin"], "C": ["ambassador", "duke"]}


def test_E13_the_log_tells_of_a_replacement_once_when_it_is_made():
    g = run(game(THREE_TAX), "A tax", "B challenge", "A prove")
    said = [render(r.text, r.params, count=r.count) for r in g.log]
    assert not any("new card" in line for line in said)
    g = run(g, "A draw captain")
    said = [render(r.text, r.params, count=r.count) for r in g.log]
    assert [line for line in said if "new card" in line] == [
        "A shuffles the Duke back into the court deck and draws a new card."]


# --- what an independent replayer found (issue 9) -------------------------------------------


def test_four_copies_of_each_character_are_enough_for_ten_players():
    """FORMAT.md `copies_per_character`: 7-10 players need at least 4, if the hands fit."""
    ten = {f"P{i}": None for i in range(10)}
    assert game(ten, rules={"copies_per_character": 4}).deck_size == 20 - 20
    assert game({f"P{i}": None for i in range(9)},
                rules={"copies_per_character": 4}).deck_size == 2


def test_choose_hand_the_two_missing_characters_are_dealt_one_to_each_hand():
    """FORMAT.md `court_deck`: the two characters missing from it went one to each player."""
    import pytest

    from app.engine import RuleError
    with pytest.raises(RuleError, match="one to each player"):
        game({"A": ["duke", "captain"], "B": ["duke", "captain"]},
             rules={"two_player_setup": "choose_hand"},
             court_deck=["ambassador", "contessa", "duke"])
    game({"A": ["duke", "captain"], "B": ["assassin", "captain"]},
         rules={"two_player_setup": "choose_hand"}, court_deck=["ambassador", "contessa", "duke"])


def test_E36_the_waiting_line_and_the_claim_of_an_embezzle_say_no_duke():
    g = game({"A": ["captain", "contessa"], "B": ["duke", "assassin"], "C": ["ambassador", "duke"]},
             rules={"reformation": True})
    g = run(g, "A embezzle")
    claim = table_view(g)["turn"]["claim_words"]
    assert render(claim.text, claim.params) == "no Duke"
    g = run(g, "B challenge")
    line = waiting(g)
    assert render(line.text, line.params) == (
        "Waiting for A to show a hand with no Duke or concede.")


def test_E13_a_la_mame_proof_of_one_card_says_one_card():
    g = game({"A": ["duke", "captain"], "B": ["contessa", "assassin"], "C": ["duke", "duke"]},
             rules={"preset": "la_mame_ru_2015"})
    g = run(g, "A tax", "B challenge", "A prove")
    said = [render(r.text, r.params, count=r.count) for r in g.log]
    assert ("By this edition’s rules, at the end of the turn A puts the shown card at the "
            "bottom of the court deck and draws the top card.") in said


def test_a_hand_without_a_phone_losing_a_card_sees_every_copy_face_up_greyed_out():
    """Every Duke is face up: the untracked player's lose prompt still lists every character
    (anything less would tell about hidden cards) but names the Duke as gone, which is public,
    so the tablet greys it out; losing it is still refused by card counting."""
    g = game({"A": ["captain"], "B": ["contessa"], "C": None},
             revealed={"A": ["duke"], "B": ["duke"], "C": ["duke"]}, coins={"A": 7})
    g = run(g, "A coup C")
    (prompt,) = [p for p in pending(g) if p.kind == "lose"]
    assert prompt.player == "C" and "duke" in prompt.options["cards"]
    assert list(prompt.options["gone"]) == ["duke"]
    refused(g, "C lose duke")
    g = game({"A": ["captain", "duke"], "B": ["contessa", "duke"], "C": None}, coins={"A": 7})
    g = run(g, "A coup C")
    (prompt,) = [p for p in pending(g) if p.kind == "lose"]
    assert list(prompt.options["gone"]) == []
