-- marker-penalty: a player whose train still carries a marker when the round ends
-- adds 10 points (club score calculators).
return {
  description = "a marker left on one's train at the end of a round costs 10",
  round_points = function(outcome, view, points)
    for name, train in pairs(view.trains) do
      if train.marker then points[name] = points[name] + 10 end
    end
    return points
  end,
}
