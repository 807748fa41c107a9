local t, s = {}, ""
for i = 1, 20 do t["k" .. i] = {} end
for k, v in pairs(t) do s = s .. k .. tostring(v) .. string.format("%p", v) end
math.randomseed()
return { description = s .. math.random(1, 100), may_play = function(m) for k in pairs(m) do end return next(m) ~= nil end }
