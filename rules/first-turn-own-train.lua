-- first-turn-own-train: in a player's first turn of a round, only their own train
-- may be played on (an owed cover excepted) (seed 004).
return {
  description = "the first turn of a round plays on one's own train only",
  first_turn = "own-train",
}
