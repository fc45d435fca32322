"""Gugong engine. Modules follow the rulebook: setup, morning, day (turns and gift exchange),
locations (the seven location actions, card actions, travel tokens), night, scoring, solo (the Meng
automa); consts reads every rule constant from the knowledge base; schema documents states and actions.

Actions (JSON; every one names its "player"):
  turn:      exchange {card, location, payment: free|servants|discard|no_action, discard?, double?}
             card_action {...the card's parameters}   location_action {option?, double?, pieces?,
             extra?, house?, decree?}   end_turn {}
  decisions: travel {city}  token_reward {use, ...}  tokens {for: servant|vp|jade, doubles}
             intrigue_reward {reward|null, die?, face?}  canal_place {ship|null, path?, piece}
             canal_move {ship|null}  claim {reward|null}  decree_bonus {decree, use, ...}
             follow {use, ...} (bonus travel tokens variant)
             take_double {take} (after gaining servants while the double servant is in the supply)
legal_actions() lists every complete legal action of the player to act.
"""
