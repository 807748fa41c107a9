-- ascending: rounds run 0-0, 1-1, ... up to 12-12 (seed 004); up to the highest
-- double of another set.
return {
  description = "engines ascend from 0-0 to 12-12",
  engine = function(round, rounds, view) return (round - 1) % (view.max_pip + 1) end,
}
