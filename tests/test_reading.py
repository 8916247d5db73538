"""What people read: options that say what a move does, boards that end with who acts (issue 14).
"""

from __future__ import annotations

from tests.test_dwarf_king import GAME as DWARF_KING
from tests.test_dwarf_king import Table as DwarfTable
from tests.test_king_of_the_valley import GAME as KOTV
from tests.test_king_of_the_valley import PRIESTS, table

# --------------------------------------------------------------------------------------------
# King of the Valley: what a move summons


def test_valley_options_say_what_each_move_summons():
    state = table(PRIESTS, kings=("c1", "a5"))
    lines = KOTV.option_lines(state, KOTV.legal(state))
    by_move = {line.split("   [")[0].strip(): line.split("   [")[1].rstrip("]")
               for line in lines if "   [" in line}
    assert by_move["move c1 c2"] == "countess"  # the king stands on c1, a farmer
    assert by_move["move c1 c3 e5"] == "priest -> countess"
    assert by_move["move c1 c3 c1"] == "priest -> farmer"  # back to the start after a priest
    assert all(" take " not in move or ", " in tiles for move, tiles in by_move.items())
    # the line as printed is read back as the move it lists
    line = next(ln for ln in lines if ln.startswith("move c1 c3 e5 "))
    assert KOTV.parse(state, line, "Ann") == KOTV.parse(state, "move c1 c3 e5", "Ann")


# --------------------------------------------------------------------------------------------
# The Dwarf King: each magic card's condition on its own line


class Table(DwarfTable):
    def lines(self):
        return DWARF_KING.option_lines(self.state, DWARF_KING.legal(self.state))

    def note(self):
        return DWARF_KING.legal_note(self.state)


def test_a_magic_card_that_cannot_be_played_is_no_option_line_but_a_note():
    t = Table()
    t.start("Mummy")
    lines = t.lines()
    assert lines == [lines[0]] and lines[0].startswith("any unplayed card: ")
    assert "Mummy" not in lines[0]
    assert t.note() == ("Not playable now: Mummy (it copies the card that won the previous "
                        "trick: not in the first trick).")


def test_a_magic_card_that_may_be_played_says_what_it_is_on_its_line():
    t = Table()
    t.start("Mummy")
    t.cards("K7 K8 K5")  # Catie, Pierre, Bruno: Pierre wins with K8 and leads trick 2
    assert t.lines()[-1] == "Mummy   (as 8 of Knights (K8), the card that won the previous trick)"
    assert t.note() == ""
    t("GA")
    assert t.lines()[-1] == ("Mummy   (as 8 of Knights (K8), the card that won the previous "
                             "trick; only if void in Goblins (R-8))")
    t = Table()
    t.start("Excalibur")
    t("K7")
    assert t.lines()[-1] == "Excalibur   (only when void in Knights, and then it wins)"
    t = Table()
    t.start("Puppeteer")
    t("K7")
    assert t.lines()[-1] == ("Puppeteer   (half a step above 7 of Knights (K7), the card played "
                             "just before it)")
    t = Table()
    t.start("Dragon")
    assert t.lines()[-1] == "Dragon   (the Dragon may be played at any time)"
    assert "Dragon" not in t.lines()[0]
