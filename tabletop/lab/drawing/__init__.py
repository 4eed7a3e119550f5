"""Drawn and photographed things for the simulators and training: cards, glyphs, surfaces and hands."""
