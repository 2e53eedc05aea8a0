"""One test per edge case of RULES.md §2 that the engine decides: E-1 .. E-14, blocks,
challenges, eliminations and the forced coup (E-15 .. E-40 and what the table is told: the
other test_edge_cases_*.py)."""

from __future__ import annotations

from scenario import coins, game, hand, kinds, refused, run

from app.engine import only_passes_since, pending


def test_E1_target_who_lost_a_challenge_may_still_block():
    g = game({"A": ["assassin", "duke"], "B": ["captain", "contessa"], "C": ["duke", "captain"]},
             coins={"A": 3})
    g = run(g, "A assassinate B", "B challenge", "A prove", "A draw captain", "B lose captain")
    assert kinds(g) == [("B", "block")]
    g = run(g, "B block contessa", "pass")
    assert hand(g, "B") == ["contessa"] and g.current == "B"


def test_E1_target_who_challenged_may_not_block_when_the_setting_says_so():
    g = game({"A": ["assassin", "duke"], "B": ["captain", "contessa"], "C": ["duke", "captain"]},
             coins={"A": 3}, rules={"target_who_challenged_may_block": False})
    g = run(g, "A assassinate B", "B challenge", "A prove", "A draw captain", "B lose captain")
    assert g.player("B").out and g.current == "C"


def test_E1_anyone_may_block_targeted_leaves_a_barred_target_barred():
    g = game({"A": ["assassin", "duke"], "B": ["captain", "contessa"], "C": ["duke", "contessa"]},
             coins={"A": 3},
             rules={"target_who_challenged_may_block": False, "anyone_may_block_targeted": True})
    g = run(g, "A assassinate B", "B challenge", "A prove", "A draw captain", "B lose captain")
    assert kinds(g) == [("C", "block")]
    refused(g, "B block contessa", "can’t block")
    g = run(g, "C block contessa", "pass")
    assert not g.player("B").out


def test_E2_bluffed_contessa_costs_two_influences():
    g = game({"A": ["assassin", "duke"], "B": ["captain", "duke"], "C": ["duke", "captain"]},
             coins={"A": 3})
    g = run(g, "A assassinate B", "pass", "B block contessa", "A challenge", "B concede",
            "B lose captain")
    assert g.player("B").out and g.player("B").revealed == ("captain", "duke")
    assert any(r.rule == "E-2" for r in g.log)


def test_E3_target_out_before_the_assassination_resolves_keeps_the_coins_spent():
    g = game({"A": ["assassin", "duke"], "B": ["captain"], "C": ["duke", "captain"]},
             revealed={"B": ["duke"]}, coins={"A": 3})
    g = run(g, "A assassinate B", "B challenge", "A prove", "A draw captain")
    assert g.player("B").out and coins(g)["A"] == 0 and g.current == "C"
    assert kinds(g) == [("C", "declare")]


def test_E4_third_party_challenge_proven_target_may_still_block():
    g = game({"A": ["assassin", "duke"], "B": ["contessa", "captain"], "C": ["duke", "captain"]},
             coins={"A": 3})
    g = run(g, "A assassinate B", "C challenge", "A prove", "A draw duke", "C lose captain")
    assert kinds(g) == [("B", "block")]


def test_E4_third_party_challenge_caught_bluff_refunds_and_spares_the_target():
    g = game({"A": ["captain", "duke"], "B": ["contessa", "captain"], "C": ["duke", "captain"]},
             coins={"A": 3})
    g = run(g, "A assassinate B", "C challenge", "A concede", "A lose captain")
    assert coins(g)["A"] == 3 and hand(g, "B") == ["captain", "contessa"] and g.current == "B"


def test_E4_a_pass_still_answers_its_window_after_other_players_passes():
    """A pass binds the window it was made in: other players letting it stand since leave it
    the same question (the web accepts such a pass drawn at the older version); anything else
    since, the player's own pass, or the window closed, and it does not."""
    players = {"A": ["duke", "captain"], "B": ["contessa", "captain"], "C": ["duke", "captain"],
               "D": ["assassin", "ambassador"]}
    asked = run(game(players), "A tax")
    b_passed = run(asked, "B pass")
    assert only_passes_since(asked, b_passed, "C")
    assert only_passes_since(asked, run(b_passed, "C pass"), "D")
    assert not only_passes_since(asked, b_passed, "B")  # B's own second tap
    assert not only_passes_since(asked, run(asked, "B challenge"), "C")
    assert not only_passes_since(asked, run(b_passed, "C pass", "D pass"), "C")  # closed
    assert not only_passes_since(asked, run(asked, "pass", "B tax"), "C")  # a later window


def test_E5_challenger_losing_the_last_card_does_not_stop_the_action():
    g = game({"A": ["duke", "captain"], "B": ["contessa"], "C": ["captain", "duke"]},
             revealed={"B": ["assassin"]})
    g = run(g, "A tax", "B challenge", "A prove", "A draw assassin")
    assert g.player("B").out and coins(g)["A"] == 5 and g.current == "C"


def test_E6_actor_out_by_own_bluff_gets_refund_then_returns_the_coins():
    g = game({"A": ["captain"], "B": ["duke", "contessa"], "C": ["duke", "captain"]},
             revealed={"A": ["duke"]}, coins={"A": 3})
    g = run(g, "A assassinate B", "C challenge", "A concede")
    assert g.player("A").out and coins(g)["A"] == 0 and g.treasury == 50 - 4
    assert g.current == "B"


def test_E6_actor_out_by_challenging_a_block_keeps_the_action_blocked():
    g = game({"A": ["captain"], "B": ["duke", "contessa"], "C": ["duke", "captain"]},
             revealed={"A": ["duke"]})
    g = run(g, "A foreign_aid", "B block duke", "A challenge", "B prove", "B draw captain")
    assert g.player("A").out and coins(g)["A"] == 0 and g.current == "B"


def test_E7_eliminated_player_is_not_asked_again():
    g = game({"A": ["duke", "captain"], "B": ["contessa"], "C": ["captain", "duke"]},
             revealed={"B": ["assassin"]})
    g = run(g, "A foreign_aid", "C block duke", "B challenge", "C prove", "C draw captain")
    assert g.player("B").out
    refused(g, "B income", "out of the game")


def test_E7_game_ends_the_moment_one_player_is_left():
    g = game({"A": ["assassin", "duke"], "B": ["captain"]}, revealed={"B": ["contessa"]},
             coins={"A": 3, "B": 5})
    g = run(g, "A assassinate B", "B challenge", "A prove")
    assert g.winner == "A" and g.turn is None and pending(g) == []
    refused(g, "A draw contessa", "game is over")


def test_E8_a_player_holding_the_card_may_concede():
    g = game({"A": ["duke", "captain"], "B": ["contessa", "captain"], "C": ["duke", "captain"]})
    g = run(g, "A tax", "B challenge", "A concede", "A lose captain")
    assert hand(g, "A") == ["duke"] and coins(g)["A"] == 2


def test_E9_only_the_target_blocks_a_steal_anyone_blocks_foreign_aid():
    g = game({"A": ["captain", "duke"], "B": ["duke", "duke"], "C": ["captain", "contessa"]})
    g = run(g, "A steal B", "pass")
    refused(g, "C block captain", "Only B")
    g = run(g, "B pass", "B foreign_aid")
    assert sorted(kinds(g)) == [("A", "block"), ("C", "block")]


def test_E10_a_claim_is_challenged_only_once():
    g = game({"A": ["duke", "captain"], "B": ["contessa", "captain"], "C": ["duke", "captain"],
              "D": ["assassin", "contessa"]})
    g = run(g, "A tax", "B challenge")
    refused(g, "D challenge", "only once")


def test_E11_one_block_per_action_by_default():
    g = game({"A": ["captain", "contessa"], "B": ["captain", "ambassador"], "C": ["duke", "duke"]})
    g = run(g, "A foreign_aid", "B block duke", "A challenge", "B concede", "B lose captain")
    assert coins(g)["A"] == 4 and g.current == "B"


def test_E11_reblock_foreign_aid_lets_another_player_block():
    g = game({"A": ["captain", "contessa"], "B": ["captain", "ambassador"], "C": ["duke", "duke"]},
             rules={"reblock_foreign_aid": True})
    g = run(g, "A foreign_aid", "B block duke", "A challenge", "B concede", "B lose captain")
    assert kinds(g) == [("C", "block")]
    g = run(g, "C block duke", "pass")
    assert coins(g)["A"] == 2


def test_E12_the_actor_may_challenge_a_block():
    g = game({"A": ["captain", "contessa"], "B": ["duke", "ambassador"], "C": ["duke", "captain"]})
    g = run(g, "A foreign_aid", "B block duke")
    assert ("A", "respond") in kinds(g)


def test_E13_a_proven_block_is_replaced_like_an_action():
    g = game({"A": ["captain", "contessa"], "B": ["duke", "ambassador"], "C": ["duke", "captain"]})
    g = run(g, "A foreign_aid", "B block duke", "A challenge", "B prove")
    assert ("B", "draw") in kinds(g)
    g = run(g, "B draw assassin", "A lose contessa")
    assert hand(g, "B") == ["ambassador", "assassin"]


def test_E14_forced_coup_is_checked_at_the_start_of_the_turn_only():
    g = game({"A": ["duke", "captain"], "B": ["captain", "contessa"], "C": ["assassin", "duke"]},
             coins={"A": 9})
    g = run(g, "A tax", "pass")
    assert coins(g)["A"] == 12
    g = run(g, "B steal A", "pass", "A pass", "C income")
    refused(g, "A income", "is the only choice")
    g = run(g, "A coup C", "C lose duke")


def test_E14_a_player_with_ten_coins_may_still_challenge_and_block():
    g = game({"A": ["duke", "captain"], "B": ["captain", "contessa"], "C": ["assassin", "duke"]},
             coins={"B": 10})
    g = run(g, "A foreign_aid")
    assert ("B", "block") in kinds(g)


def test_E14_forced_coup_forbids_convert_and_embezzle_and_targets_the_other_side():
    g = game({"A": ["duke", "captain"], "B": ["captain", "contessa"], "C": ["assassin", "duke"]},
             coins={"A": 10}, rules={"reformation": True})
    refused(g, "A convert A", "is the only choice")
    refused(g, "A embezzle", "is the only choice")
    refused(g, "A coup C", "same side")
    run(g, "A coup B")
