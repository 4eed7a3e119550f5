"""The game itself, pure: cards, events, rules, the record, the referee and the board view.

Standard library only, no I/O, no clock, no threads; everything else in tabletop depends on this, never the
other way round.
"""
