-- positive-scoring: the player who goes out scores the pips left in the other
-- hands; on a block the lowest hands share them; the highest total wins (seed 004).
return {
  description = "the winner of a round scores the other hands; highest total wins",
  scoring = "positive",
  incompatible = {
    ["elimination-100"] = "positive scores grow towards the limit and the highest total cannot win by elimination",
  },
}
