"""Reading cards from pictures: rendering decks to learn from, finding cards in frames, and the card model."""
