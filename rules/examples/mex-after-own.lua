-- mex-after-own: only a player whose own train holds a tile may start the (empty)
-- Mexican train (German sets' rules).
return {
  description = "the Mexican train is started only by a player with a train of their own",
  may_play = function(play, view)
    if play.train == "mex" and view.trains.mex.length == 0 and view.trains[play.player].length == 0 then
      return false, "only a player whose own train holds a tile may start the Mexican train"
    end
    return true
  end,
}
