"""Making training samples and frames, training the card model and the finder, and measuring them."""
