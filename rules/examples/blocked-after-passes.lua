-- blocked-after-passes: the round is blocked only after a whole lap of passes with
-- an empty boneyard (seed 003).
return {
  description = "a round is blocked after a lap of passes with an empty boneyard",
  blocked = function(view)
    return view.boneyard == 0 and view.passes >= #view.in_play
  end,
}
