local t = setmetatable({}, {__len = function() return math.maxinteger - 1 end, __index = type, __newindex = rawequal})
table.insert(t, 1, 0)
return {}
