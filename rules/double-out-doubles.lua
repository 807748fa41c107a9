-- double-out-doubles: going out on a double doubles every other player's penalty
-- for that round (seed 004).
return {
  description = "going out on a double doubles the round's penalties",
  out_on_double = 2,
}
