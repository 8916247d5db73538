"""How the table is asked to declare what the log lacks (R-2): the kind a new card's printed name
tells, the `declare` lines to fill in, and the block they are printed in, the same for one card
as for a whole deal, so that the table fills in and pastes one shape of text.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from referee.errors import NotationError
from referee.games.kingmaker.components import ASSOC, CROWN, FIELDS, REQUIRED, Box
from referee.games.kingmaker.notation import BLANK, shown, unquote

# The words a card's printed name begins with that tell its kind: every bishop, title and office
# of the shipped box files (kingmaker-ah1.toml, kingmaker-testbox.toml) begins with one.
BISHOP_WORDS = ("bishop", "archbishop")
TITLE_WORDS = ("earl", "duke", "baron", "viscount", "marquess")
OFFICE_WORDS = ("admiral", "captain", "chamberlain", "chancellor", "constable", "lieutenant",
                "marshal", "warden")
# The soldiers a mercenary card names last (French Foot Soldiers, Welsh Mercenaries).
MERCENARY_WORDS = ("mercenaries", "mercenary", "soldiers", "bowmen", "archers", "crossbowmen",
                   "handgunners", "pikemen")

# What the box lists by a name that is no crown card's: a name typed as a card is that, never
# a new card whose kind its name seems to tell (Chancellor May Call Parliament, an event card,
# is no office; Duke of York, a Royal Guard, no title; Henry, an heir, no noble).
NOT_CROWN = {"event": "an event card, drawn in the chance phase,",
             "guard": "a Royal Guard, never dealt or drawn,", "heir": "an heir,"}

CARD_KINDS = ", ".join(CROWN[:-1]) + f" or {CROWN[-1]}"
KIND_VALUES = "; ".join(f"{kind} {', '.join(REQUIRED[kind])}" for kind in CROWN)
# Said last, where the eye is when a long refusal ends (a terminal of 24 rows scrolls its head)
FILL_IN = (f"Fill in each {BLANK} above from the box, then record the lines at once with "
           "`referee declare` (the lines on standard input) or `referee declare FILE`, or type "
           "each line at the `referee table` prompt; then the move goes through.")


def asking(head: str, block: str) -> str:
    """A refusal that asks for printed values (R-2): what is wanted, the `declare` lines to
    fill in with their notes, and last what to do with them."""
    return f"{head}:\n{block}\n{FILL_IN}"


def card_name(word: str) -> str:
    """A card's name as typed (`Captain-of-Calais`, `"Grace Dieu"`), with its spaces."""
    return unquote(word) if '"' in word else word.replace("-", " ")


def not_a_crown_card(box: Box, word: str) -> NotationError | None:
    """A name the box lists as an event card, a Royal Guard or an heir, typed as a crown card:
    said to be what it is (§2.1), not asked as a new card."""
    for kind, what in NOT_CROWN.items():
        entry = box.clash(kind, card_name(word))
        if entry is not None and entry.kind == kind:
            return NotationError(f"{word!r} is {what} not a crown card", code="not-a-crown-card",
                                 rule="§2.1")
    return None


def kind_from_name(name: str) -> str:
    """The kind a card's printed name tells, else BLANK: a bishop names his see, a title its
    earldom or dukedom, an office its officer, a mercenary card its soldiers; a one-word name is
    read as a noble's family (the note says a ship or a town card may be one); any other name tells nothing
    (`Grace Dieu` is a ship, `Plague in Calais` an event)."""
    words = name.casefold().split()
    if not words:
        return BLANK
    first, last = words[0], words[-1]
    for kind, told in (("bishop", first in BISHOP_WORDS), ("title", first in TITLE_WORDS),
                       ("office", first in OFFICE_WORDS), ("mercenary", last in MERCENARY_WORDS),
                       ("noble", len(words) == 1)):
        if told:
            return kind
    return BLANK


def kind_untold(name: str, values: Sequence[tuple[str, str]]) -> NotationError | None:
    """A card new to the log whose name is one word, given printed values with a move (`draw
    Blount troops=3`): a noble's only when no other crown card prints them all (home, or
    lords with troops); else its kind is asked, never guessed (a title, an office and a
    mercenary card print troops too; a bishop lords), in one refusal with a line that works."""
    keys = {key for key, _ in values if key in FIELDS["noble"] and key not in FIELDS["place"]}
    if kind_from_name(name) != "noble" or not keys:
        return None
    kinds = [kind for kind in CROWN if keys <= FIELDS[kind].keys()]
    if kinds == ["noble"]:
        return None
    told = ", ".join(kinds[:-1]) + f" or {kinds[-1]}"
    typed = " ".join(f"{key}={raw}" for key, raw in values if key in FIELDS[kinds[0]])
    return NotationError(f"{name} is not in this box yet, and a one-word name does not tell its "
                         f"kind ({told}: each prints {' and '.join(sorted(keys))}): declare it "
                         f"first with the kind its card says, e.g. `declare {kinds[0]} {name} "
                         f"{typed}`, then the move again",
                         code="kind-untold", rule="R-2")


def assoc_from_name(name: str) -> str | None:
    """Calais or Ireland, when a card's printed name ties it there (the Captain of Calais, the
    Lieutenant of Ireland): such a card is out of the house rules' game (rule 25)."""
    words = name.casefold().replace("(", " ").replace(")", " ").split()
    return next((place for place in ASSOC if place in words[1:]), None)


def plague_from_name(name: str) -> str | None:
    """The place a plague card's printed name gives (`Plague in London`, `Plague (York)`)."""
    words = name.replace("(", " ").replace(")", " ").split()
    if len(words) < 2 or words[0].casefold() != "plague":
        return None
    rest = words[2:] if words[1].casefold() in ("in", "at", "of") else words[1:]
    return " ".join(rest) or None


def unknown_card_gaps(name: str) -> list[tuple[str, str, str, str]]:
    """The values a card this box does not list needs, its kind read from its name; a name
    that tells no kind leaves the kind blank too. A name that ties a card to Calais or
    Ireland fills in its `assoc` (B8: the table need not know rule 25 to type it)."""
    kind = kind_from_name(name)
    gaps = [(kind, name, key, BLANK) for key in REQUIRED.get(kind, ())]
    assoc = assoc_from_name(name)
    if assoc is not None and kind in CROWN:
        gaps.append((kind, name, "assoc", assoc))
    if kind == "noble":
        gaps.append(("place", BLANK, "kind", "castle"))
    return gaps or [(kind, name, "", "")]


def unknown_notes(names: Sequence[str]) -> list[str]:
    """What the table must know of the lines for cards the box does not list: which kinds are
    read from a name, which a name does not tell, and what each kind's card prints."""
    read = [name for name in names if kind_from_name(name) not in (BLANK, "noble")]
    one_word = [name for name in names if kind_from_name(name) == "noble"]
    untold = [name for name in names if kind_from_name(name) == BLANK]
    notes = []
    if read:
        notes.append(f"{', '.join(read)}: not in this box yet; the kind is read from the "
                     "card's name.")
    tied = [name for name in names if assoc_from_name(name) and kind_from_name(name) != BLANK]
    if tied:
        notes.append(f"{', '.join(tied)}: the name ties the card to Calais or Ireland (assoc); "
                     "with the house rules such a card is out of the game (rule 25), so it is "
                     "refused from the deal once declared.")
    if one_word:
        notes.append(f"{', '.join(one_word)}: not in this box yet; a one-word name is read as "
                     f"a noble's (a ship's card is `declare ship NAME capacity={BLANK} "
                     f"home_port={BLANK}`, a town card's `declare town NAME place={BLANK}`).")
    if untold:
        notes.append(f"{', '.join(untold)}: not in this box yet, and the name does not tell "
                     f"the card's kind: write it for the {BLANK} after `declare` ({CARD_KINDS}), "
                     "then that kind's values.")
    if untold:
        notes.append(f"Each kind's values: {KIND_VALUES}.")
    return notes


def declare_lines(gaps: Iterable[tuple[str, str, str, str]]) -> list[str]:
    """One `declare` line per entry, its blanks marked, in the order first needed."""
    lines: dict[tuple[str, str], list[str]] = {}
    blank_places = 0
    for kind, name, key, value in gaps:
        if name == BLANK:  # each unnamed place a line of its own
            blank_places += 1
            name = f"{BLANK}{blank_places}"
        words = lines.setdefault((kind, name), [])
        pair = f"{key}={value}" if key else ""
        if pair and pair not in words:
            words.append(pair)
    return [" ".join(["declare", kind, BLANK if name.startswith(BLANK) else shown(name),
                      *words]) for (kind, name), words in lines.items()]


def declare_block(lines: Sequence[str], unknown: Sequence[str] = (),
                  notes: Sequence[str] = ()) -> str:
    """The lines to fill in, one a line and indented (a block the table copies, fills in and
    pastes into `referee declare`), then what helps to fill them in: `notes`, what the names
    of the cards the box does not list (`unknown`) tell, how a place line is named."""
    notes = [*notes, *unknown_notes(unknown)]
    if any(line.startswith(f"declare place {BLANK}") for line in lines):
        notes.append(f"A `declare place {BLANK}` line names a place as the map prints it; a "
                     "noble with two home castles has home=A,B and a place line for each.")
    return "\n".join(f"  {line}" for line in lines) + "".join(f"\n{note}" for note in notes)
