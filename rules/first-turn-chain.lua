-- first-turn-chain: in a player's first turn of a round, a play on their own train
-- gives another play on their own train while they hold a tile that fits it
-- (seeds 004 and 000).
local function fits_own_train(view)
  local open = view.trains[view.player].open
  for _, tile in ipairs(view.hand) do
    if tile.low == open or tile.high == open then return true end
  end
  return false
end

return {
  description = "a first turn goes on along one's own train while a tile fits it",
  another_play = function(play, view, again)
    if again then return true end                 -- a double: its cover comes first
    return view.first_turn and play.own and #view.doubles == 0 and fits_own_train(view)
  end,
  may_play = function(play, view)
    if view.first_turn and view.plays > 0 and #view.doubles == 0 and not play.own then
      return false, "a first turn's chain goes on along one's own train"
    end
    return true
  end,
  incompatible = {
    ["doubles-anywhere-lifo"] = "a double's free play and the first turn's chain cannot both decide the turn",
    ["doubles-anywhere-fifo"] = "a double's free play and the first turn's chain cannot both decide the turn",
  },
}
