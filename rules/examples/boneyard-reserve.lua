-- boneyard-reserve: the last tile of the boneyard (the last two with two players)
-- is never drawn (Chicken Foot sheets).
return {
  description = "the last tile of the boneyard (two with two players) is never drawn",
  drawable = function(view, count)
    local reserve = #view.in_play == 2 and 2 or 1
    return math.max(0, count - reserve)
  end,
}
