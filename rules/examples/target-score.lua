-- target-score: the match ends after the round in which any total reaches 100 (or
-- after the last round); the lowest total wins (club score sheets).
return {
  description = "the match ends once a total reaches 100",
  match_over = function(view, over)
    for _, total in pairs(view.totals) do
      if total >= 100 then return true end
    end
    return over
  end,
}
