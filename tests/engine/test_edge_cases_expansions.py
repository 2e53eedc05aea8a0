"""Edge cases E-30 .. E-40 of RULES.md §2: the Inquisitor, Reformation's sides, conversions and
embezzlement."""

from __future__ import annotations

from scenario import coins, game, hand, kinds, refused, run

from app.engine import seat_view, table_view


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
