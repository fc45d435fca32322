"""ZhanGuo engine. game.py runs the rulebook in order (setup with the B sides and their auction,
phase 1 draw or the card-selection variant, phase 2 card play: unification, the 6 court actions, card
and B-side activations, tasks; phase 3 unification rewards); scoring.py the end of the game and the
invariants; consts.py reads every rule constant from the knowledge base; schema.py documents states
and actions. What the draw, a unification, a court action, an ability, a reward and a scoring do is
their effect in kb/data, run by the interpreter (engine/core/effects.py) through vocabulary.py; the
modules keep the flow: whose turn, which choices are legal, what waits as a decision."""
