"""The Kingmaker scoresheet explains its result in the game's terms (issue 28): each victory
kind of §10 and R-50, and a game the table stopped."""

from __future__ import annotations

from referee.evolve import evolve
from referee.games.kingmaker import GAME, rules
from referee.games.kingmaker.scoring import explain_result
from referee.games.kingmaker.state import Ending
from referee.sheets import render_text
from tests.conftest import GOLDEN
from tests.kingmaker_realm import dead, heir
from tests.test_golden import final_state

THREE = GOLDEN / "kingmaker" / "three-player-two-parliaments.toml"


def _flat(text: str) -> str:
    return " ".join(text.split())


def _at_time(state):
    """The state ended at the time limit as R-50 decides it."""
    state = evolve(state, ended=None)
    victory, winners = rules.time_victory(state)
    return evolve(state, ended=Ending("time", "the time limit", winners, victory))


def test_complete_and_utter_victory_names_the_king_and_the_dead_heirs():
    game, state = final_state(GOLDEN / "kingmaker" / "four-player-complete-victory.toml")
    lines = explain_result(state)
    assert lines[0].startswith("King Henry, crowned, is the only heir alive, held by Neville "
                               "of Ann's faction: Complete and Utter Victory")
    assert lines[1] == ("Heirs dead: Edward of Lancaster, Edward of March, George of Clarence, "
                        "Margaret of Anjou, Richard of Gloucester, Richard of York.")
    assert "King Henry, crowned" in _flat(render_text(game.score(state)))


def test_minor_split_victory_gives_each_factions_votes_and_each_test():
    game, state = final_state(GOLDEN / "kingmaker" / "six-player-time-limit.toml")
    lines = explain_result(state)
    assert lines[0] == (
        "Commons of 100 and Lords of 53 (R-51): Ann 15 (15%) and 9 (17%); Ben 12 (12%) and "
        "9 (17%); Cat 36 (36%) and 6 (11%); Dan 15 (15%) and 8 (15%); Eve 11 (11%) and "
        "11 (21%); Fay 11 (11%) and 10 (19%).")
    assert lines[1].endswith("failed, 3 heirs live.")
    assert lines[2].endswith("failed, no faction holds a crowned King.")
    assert lines[3].endswith("failed: the most Commons Cat, the most Lords Eve.")
    assert lines[4] == ("Minor Split Victory: the most Commons, 36 (36%): Cat; the most Lords, "
                        "11: Eve; each shares the win, whatever the other house.")
    assert lines[5] == "So Minor Split Victory: Cat, Eve (R-50)."


def test_major_parliamentary_victory_stops_at_the_test_it_passed():
    _, state = final_state(THREE)
    lines = explain_result(state)
    assert "passed by Ann with King Henry: Commons 58% (at least half), Lords 33 (strictly " \
           "the most)." in lines[2]
    assert "failed by Ben with King Edward of March: Commons 29% (under half)" in lines[3]
    assert not any(line.startswith("Alternate Minor") for line in lines)
    assert lines[-1] == "So Major Parliamentary Victory: Ann (R-50)."


def test_alternate_minor_and_major_royal_victories():
    _, state = final_state(THREE)
    alternate = explain_result(_at_time(dead(state, "Henry", "Edward of March")))
    assert any("failed, no faction holds a crowned King" in line for line in alternate)
    assert alternate[-2] == ("Alternate Minor Victory (strictly the most votes in both houses): "
                             "passed by Ann.")
    assert alternate[-1] == "So Alternate Minor Victory: Ann (R-50)."
    others = [h for h in rules.living_heirs(state) if h != "George of Clarence"]
    royal = explain_result(_at_time(heir(dead(state, *others), "George of Clarence",
                                         by="Neville")))
    assert royal[1:] == ["Major Royal Victory (one faction holds the only living heir, "
                         "uncrowned): passed by Ann, who holds George of Clarence.",
                         "So Major Royal Victory: Ann (R-50)."]


def test_a_stopped_game_says_who_ended_it_and_the_standing():
    game, state = final_state(THREE)
    stopped = evolve(state, ended=Ending("concede", "the table ended it (concede)"))
    lines = explain_result(stopped)
    assert lines[0] == (f"The table ended the game in turn {state.turn}, {state.active}'s turn "
                        "(`end concede`): no winner (§10). The standing then:")
    assert lines[1].startswith("Commons of 80 and Lords of 54 (R-51): Ann 46 (58%) and 33 (61%); ")
    assert explain_result(evolve(state, ended=None)) == []
    assert "(`end concede`): no winner (§10)" in _flat(render_text(game.score(stopped)))


def test_status_lists_every_source_of_a_nobles_strength():
    """Cards, printed titles, Royal Guards (R-44) and regional bonuses (R-4) add up to the
    strength status shows, at every step of the golden games."""
    from referee import log as logfile
    from referee.replay import replay_log, steps

    guards = bonuses = 0
    for name in ("three-player-two-parliaments", "four-player-complete-victory",
                 "six-player-time-limit"):
        log = logfile.read(GOLDEN / "kingmaker" / f"{name}.toml")
        for step in list(steps(replay_log(log)[0], log.entries))[::7]:
            state = step.after
            if not state.in_play:
                continue
            for noble in state.nobles:
                parts = rules.strength_parts(state, noble)
                assert sum(n for _, n in parts) == rules.strength(state, noble), noble
                guards += any("Royal Guard" in what for what, _ in parts)
                bonuses += any(" bonus of " in what for what, _ in parts)
    assert guards and bonuses  # both kinds were met and summed
    game, state = final_state(THREE)
    status = _flat(game.render(state))
    assert "Neville 330 in:Middleham = troops 50, Earl of Warwick (printed), Marshal of " \
           "England +100" in status and "Duke of Lancaster (Royal Guard, R-44) +30" in status


def test_with_no_sole_king_the_sheet_counts_the_chancellors_20_as_the_chancellors():
    """B1 (R-57): with no sole King the King's 20 Commons go to the Chancellor's faction; the
    sheet says so and calls none of it King while the Kings column says 0."""
    from referee.games.kingmaker.scoring import factions

    _, state = final_state(GOLDEN / "kingmaker" / "six-player-time-limit.toml")
    assert rules.sole_king(state) is None
    cat = next(row for row in factions(state).rows if row[0] == "Cat")
    assert cat[2] == "nobles 3 + titles 4 + fortress values 9 + Chancellor 20 = 36"
    assert not any("King 20" in row[2] for row in factions(state).rows)
    assert ("Chancellor 20: with no sole King the King's 20 Commons go to the faction of the "
            "Chancellor of England (R-57).") in GAME.score(state).notes
    crowned = heir(state, "Henry", by="Percy", crowned=True)  # held by Cat's Percy
    assert rules.sole_king(crowned) == "Henry"
    cat = next(row for row in factions(crowned).rows if row[0] == "Cat")
    assert "King 20" in cat[2] and "Chancellor 20" not in cat[2]


def test_the_sheets_figures_agree_b10():
    """B10: the minutes say they are the R-49 clock's (the Duration beside them is the wall
    clock); the fortress part says it counts place values, not the Fortresses column's; a
    proposal voted down and then assigned is told once, with the votes it lost."""
    from referee.games.kingmaker.scoring import factions, happened

    game, state = final_state(GOLDEN / "kingmaker" / "six-player-time-limit.toml")
    sheet = game.score(state)
    assert sheet.outcome.endswith("; 241 minutes on the game clock (R-49: from the first "
                                  "chance phase, pauses left out)")
    cells = [row[2] for row in factions(state).rows]  # place values, not the column's count
    assert all("fortress values " in cell and "fortresses" not in cell for cell in cells)
    parliament = next(text for turn, text in happened(state).rows if "assigned" in text)
    assert "Earl of Kent to Audley (after 2 votes against)" in parliament
    assert parliament.count("Earl of Kent to Audley") == 1 and "refused" not in parliament
