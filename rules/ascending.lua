-- ascending: rounds run 0-0, 1-1, ... up to 12-12 (seed 004).
return {
  description = "engines ascend from 0-0 to 12-12",
  engine = function(round) return (round - 1) % 13 end,
}
