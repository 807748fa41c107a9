local s = string.rep("a", 5000)
string.find(s, "a*a*a*a*a*b")
return {}
