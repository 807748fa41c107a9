-- engine-from-hand: the round's double is dealt like any tile; its holder lays it
-- as the engine and the next seat opens; if nobody holds it, players draw in turn
-- until it turns up (seed 004).
return {
  description = "the engine is dealt and laid from its holder's hand",
  lay_engine = function() return "hand" end,
}
