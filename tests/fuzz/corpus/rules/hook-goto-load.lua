return { may_play = function(m) ::again:: load(function() while true do end end) goto again end }
