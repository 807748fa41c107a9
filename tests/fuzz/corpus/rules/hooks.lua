return {
  players = { min = 2, max = 10 },
  rounds = { 1, 2, 3 },
  default_rounds = 2,
  hand_size = function(n) return 90 // (n + 1) end,
  tile_value = function(a, b) return a * b - 5 end,
  engine = function(round, rounds) return (round * 5) % 13 end,
  eliminated = function(p) return p.total > 60 end,
  round_points = function(r)
    local points = {}
    for _, name in ipairs(r.players) do points[name] = r.hands[name] * 2 end
    return points
  end,
  may_play = function(m)
    if m.train == "mex" and m.first_turn then return false, "no mex in a first turn" end
    return true
  end,
  doubles = "anywhere-fifo",
  draw = "until-playable",
  scoring = "positive",
  out_on_double = 3,
  marker_after_cover = true,
  first_turn = "own-train",
}
