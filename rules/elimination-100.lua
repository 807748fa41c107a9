-- elimination-100: a total of 100 or more after a round eliminates (seed 003).
-- The match then runs until one player is left; rounds go on past 13.
return {
  description = "a total of 100 or more after a round eliminates; the last player left wins",
  eliminated = function(player) return player.total >= 100 end,
  incompatible = {
    ["positive-scoring"] = "positive scores grow towards the limit and the highest total cannot win by elimination",
  },
}
