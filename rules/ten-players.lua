-- ten-players: up to 10 players; 12 tiles each up to 6 players, 10 for 7-8,
-- 8 for 9-10 (seed 004).
return {
  description = "2 to 10 players with smaller hands",
  players = { min = 2, max = 10 },
  hand_size = function(players)
    if players <= 6 then return 12 end
    if players <= 8 then return 10 end
    return 8
  end,
}
