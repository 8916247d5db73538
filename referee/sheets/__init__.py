"""Page layouts of the Scoresheet model: `text` (a terminal, 80 columns at most) and `html` (a
printable page); `chart` holds what both charts share. The model is `referee.scoresheet`."""
