-- marker-after-cover: a player who owed a cover at the start of their turn and
-- made it on a train other than their own also gets a marker (seed 004).
return {
  description = "an owed cover made elsewhere puts a marker on one's own train",
  marker_after_cover = true,
}
