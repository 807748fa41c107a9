-- drawn-tile-optional: a player who drew a playable tile may pass instead of
-- playing it (seed 003).
return {
  description = "a drawn tile need not be played",
  may_pass = function(view, may)
    return may or (view.draws > 0 and view.can_play)
  end,
}
