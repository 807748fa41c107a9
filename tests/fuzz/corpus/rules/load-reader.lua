local f = load(function() while true do end end)
return {}
