local t = setmetatable({}, {__len = function() return 2147483646 end, __index = type, __newindex = rawequal})
table.sort(t, function(a, b) return a < b end)
return {}
