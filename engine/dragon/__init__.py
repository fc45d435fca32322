"""In the Year of the Dragon engine (2007 and 2017 editions, Great Wall and Great Events expansions).

Modules follow the rulebook: consts (every rule constant read from kb/data/dragon), setup (components,
event track, initial persons), phases (1 action, 2 person), events (3 event, great events, the Great Wall
scoring, decay, 4 scoring, end of game), schema (state and action JSON schemas), game (the Game class).
What the events, action cards, person phase, wall tiles, decay and scorings do is their effects in
kb/data, run by engine/core/effects.py; vocabulary implements the counts and conditions they name.

Actions (JSON; every one names its "player"):
  draft    {persons: [subtype, subtype], palaces: [i, j]}          initial persons (young, distinct types)
  action   {group, card, add?: [[palace, floors]...], new?: [h...], size?: small|large, tile?}
  refill   {}                                                       pass: top money up to 3 yuan
  person   {card, person: subtype|null, palace: i|null, slot?: j}  play a person card
  release  {palace, slot}                                           release a person (events)
  floor    {palace, slot?}                                          earthquake: lose a floor
  flood    {what: yuan|rice|fireworks}                              flood: return one item
  discard_card {card}                                               tornado
  sunrise  {person, palace: i|null, slot?}                          sunrise: a young courtier
  edict    {kind, add?, new?}                                       edict: one kind's benefit
"""
