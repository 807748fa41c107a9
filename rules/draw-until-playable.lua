-- draw-until-playable: a player who cannot play draws until a tile can be played
-- or the boneyard is empty (seed 004).
return {
  description = "draw until a tile can be played",
  draw = "until-playable",
}
