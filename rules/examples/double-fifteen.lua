-- double-fifteen: the double-fifteen set for large tables, 136 tiles; 16 rounds from
-- 15-15 down to 0-0 (or 8, 15-15 to 8-8, or 1), which the set brings with it; 2 to 12
-- players, 15 tiles each for 2-4, 14 for 5-6, 12 for 7-8, 11 for 9-10, 10 for 11-12.
return {
  description = "the double-fifteen set: 136 tiles, 16 rounds, 2 to 12 players",
  max_pip = 15,
  players = { min = 2, max = 12 },
  hand_size = function(players)
    if players <= 4 then return 15 end
    if players <= 6 then return 14 end
    if players <= 8 then return 12 end
    if players <= 10 then return 11 end
    return 10
  end,
  incompatible = { ["double-nine"] = "a match is played with one set" },
}
