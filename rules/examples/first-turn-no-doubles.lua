-- first-turn-no-doubles: in a player's first turn of a round, no double may be
-- laid. An example of a per-move rule (may_play); not one of the shipped eleven.
return {
  description = "no double may be laid in a player's first turn of a round",
  may_play = function(move)
    if move.first_turn and move.low == move.high then
      return false, "no double in a first turn of the round"
    end
    return true
  end,
}
