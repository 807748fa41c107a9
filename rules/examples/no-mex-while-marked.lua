-- no-mex-while-marked: a player whose own train carries a marker may not play on
-- the Mexican train until they lift the marker by playing on their own train; a
-- double owed there may still be covered. An example of a per-move rule (may_play)
-- that reads the markers; not one of the shipped eleven.
return {
  description = "no Mexican train while one's own train is marked",
  may_play = function(move)
    if move.train == "mex" and move.own_marked and not move.double_open then
      return false, "the " .. move.player .. " train is marked"
    end
    return true
  end,
}
