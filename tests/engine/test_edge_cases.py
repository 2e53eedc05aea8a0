"""One test per edge case of RULES.md §2 (E-1 .. E-40) that the engine decides."""

from __future__ import annotations

from scenario import coins, game, hand, refused, run

from app.engine import pending, seat_view, table_view, waiting
from app.engine.rulings import render


def kinds(g, name=None):
    return [(p.player, p.kind) for p in pending(g) if name is None or p.player == name]


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


def test_E30_the_target_picks_the_card_and_only_the_examiner_sees_it():
    g = game({"A": ["inquisitor", "duke"], "B": ["contessa", "assassin"], "C": ["captain", "duke"]},
             rules={"exchanger": "inquisitor"})
    g = run(g, "A examine B", "pass")
    refused(g, "A show assassin", "no card to show")
    g = run(g, "B show assassin")
    assert seat_view(g, "A")["shown"] == "assassin"
    assert seat_view(g, "C")["shown"] is None
    assert "assassin" not in repr(table_view(g)["turn"])
    g = run(g, "A return")
    assert hand(g, "B") == ["assassin", "contessa"]


def test_E30_mandatory_swap_and_examiner_picks():
    g = game({"A": ["inquisitor", "duke"], "B": ["contessa", "assassin"], "C": ["captain", "duke"]},
             rules={"exchanger": "inquisitor", "examine_swap": "mandatory",
                    "examine_shown_by": "examiner"})
    g = run(g, "A examine B", "pass")
    refused(g, "B show assassin", "no card to show")
    g = run(g, "A show contessa")
    refused(g, "A return", "always replaced")
    g = run(g, "A swap", "B draw duke")
    assert hand(g, "B") == ["assassin", "duke"] and g.unseen["contessa"] == 3


def test_E31_inquisitor_blocks_steal_ambassador_does_not_exist():
    g = game({"A": ["captain", "duke"], "B": ["inquisitor", "contessa"], "C": ["assassin", "duke"]},
             rules={"exchanger": "inquisitor"})
    g = run(g, "A steal B", "pass")
    refused(g, "B block ambassador", "no Ambassador")
    run(g, "B block inquisitor")


def test_E32_everyone_on_one_side_lifts_the_restrictions():
    g = game({"A": ["captain", "duke"], "B": ["assassin", "contessa"], "C": ["captain", "duke"]},
             rules={"reformation": True}, coins={"A": 3, "B": 2, "C": 2})
    refused(g, "A steal C", "same side")
    g = run(g, "A convert B")
    assert g.one_side()
    g = run(g, "B steal C", "pass", "C pass")
    assert coins(g)["B"] == 4


def test_E33_challenges_across_and_within_sides_are_allowed():
    g = game({"A": ["duke", "captain"], "B": ["assassin", "contessa"], "C": ["captain", "duke"]},
             rules={"reformation": True})
    assert g.player("A").faction == g.player("C").faction
    g = run(g, "A tax", "C challenge", "A prove", "A draw duke", "C lose captain")


def test_E34_foreign_aid_is_blocked_only_by_the_other_side():
    g = game({"A": ["duke", "captain"], "B": ["assassin", "contessa"], "C": ["captain", "duke"]},
             rules={"reformation": True})
    g = run(g, "A foreign_aid")
    assert kinds(g) == [("B", "block")]
    refused(g, "C block duke", "side")


def test_E35_caught_embezzler_picks_the_card_by_default():
    g = game({"A": ["duke", "contessa"], "B": ["captain", "assassin"],
              "C": ["ambassador", "captain"]},
             rules={"reformation": True}, reserve=4)
    g = run(g, "A embezzle", "C challenge")
    refused(g, "A prove", "can only concede")
    g = run(g, "A concede", "A lose contessa")
    assert hand(g, "A") == ["duke"] and g.reserve == 4


def test_E35_embezzle_caught_loses_duke_when_set():
    g = game({"A": ["duke", "contessa"], "B": ["captain", "assassin"],
              "C": ["ambassador", "captain"]},
             rules={"reformation": True, "embezzle_caught_loses_duke": True}, reserve=4)
    g = run(g, "A embezzle", "C challenge", "A concede")
    refused(g, "A lose contessa", "must lose the Duke")
    g = run(g, "A lose duke")
    assert hand(g, "A") == ["contessa"]


def test_E36_embezzle_proven_by_a_duke_free_hand_replaces_every_card():
    g = game({"A": ["captain", "contessa"], "B": ["duke", "assassin"], "C": ["ambassador", "duke"]},
             rules={"reformation": True}, reserve=4)
    g = run(g, "A embezzle", "B challenge", "A prove", "A draw assassin ambassador",
            "B lose assassin")
    assert hand(g, "A") == ["ambassador", "assassin"] and coins(g)["A"] == 6


def test_E37_embezzle_from_an_empty_reserve_is_allowed():
    g = game({"A": ["captain", "contessa"], "B": ["duke", "assassin"], "C": ["ambassador", "duke"]},
             rules={"reformation": True})
    g = run(g, "A embezzle", "pass")
    assert coins(g)["A"] == 2 and g.current == "B"


def test_E38_convert_costs_one_for_yourself_two_for_another_and_takes_no_response():
    g = game({"A": ["duke", "captain"], "B": ["assassin", "contessa"], "C": ["duke", "captain"],
              "D": ["captain", "contessa"]}, rules={"reformation": True})
    g = run(g, "A convert A")
    assert g.reserve == 1 and g.player("A").faction == "reformist" and g.current == "B"
    g = run(g, "B convert C")
    assert g.reserve == 3 and coins(g)["B"] == 0


def test_E39_only_conversions_feed_the_reserve():
    g = game({"A": ["assassin", "duke"], "B": ["captain", "contessa"], "C": ["captain", "duke"]},
             rules={"reformation": True}, coins={"A": 10})
    g = run(g, "A coup B", "B lose captain")
    assert g.reserve == 0 and g.treasury == 50 - 14 + 7


def test_E40_challenge_loss_comes_before_the_action_loss():
    g = game({"A": ["assassin", "duke"], "B": ["captain", "duke"], "C": ["duke", "captain"]},
             coins={"A": 3})
    g = run(g, "A assassinate B", "pass", "B block contessa", "A challenge", "B concede")
    assert [x.reason for x in g.turn.losses] == ["block_challenge"]
    g = run(g, "B lose captain")
    assert g.player("B").out and g.player("B").revealed == ("captain", "duke")


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
