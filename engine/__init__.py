"""Executable rules: a small shared core (engine.core) and one package per game.

Every rule constant and effect comes from the knowledge base (kb/data); game packages implement
the mechanisms and interpret the effect language.
"""
