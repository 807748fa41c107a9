local n = 0
return {
  may_play = function(m) n = n + 1; if n == 500 then error("boom at 500") end; return true end,
}
