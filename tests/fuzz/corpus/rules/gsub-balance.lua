local s = string.rep("x", 100000)
local r = string.rep("%0", 100000)
s:gsub("", r)
local b = string.rep("(", 100000):find("%b()")
return {}
