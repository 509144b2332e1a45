"""One builder per game (or language): candidate forms, their analyses, the game's rules."""
