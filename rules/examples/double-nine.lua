-- double-nine: the double-nine set for small tables, 55 tiles; 10 rounds from 9-9
-- down to 0-0 (or 5, 9-9 to 5-5, or 1), which the set brings with it; 2 to 6 players,
-- 10 tiles each for 2-4 players, 8 for 5-6.
return {
  description = "the double-nine set: 55 tiles, 10 rounds, 2 to 6 players",
  max_pip = 9,
  players = { min = 2, max = 6 },
  hand_size = function(players) return players <= 4 and 10 or 8 end,
  incompatible = { ["double-fifteen"] = "a match is played with one set" },
}
