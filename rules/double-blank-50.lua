-- double-blank-50: the 0-0 counts 50 penalty points (seed 004).
return {
  description = "0-0 counts 50",
  tile_value = function(low, high)
    if low == 0 and high == 0 then return 50 end
    return low + high
  end,
}
