-- trainless-draws: a player whose own train is still empty and who cannot play
-- draws until they can play or the boneyard is empty (seed 004).
return {
  description = "a player without a train draws until they can play",
  may_draw = function(view, may)
    return may or view.trains[view.player].length == 0
  end,
}
