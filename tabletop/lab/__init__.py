"""The lab: the game and table simulators, card rendering, training, evaluation and benchmarks.

What the table unit learns from and is measured by; it never runs on the Pi at the table.
"""
