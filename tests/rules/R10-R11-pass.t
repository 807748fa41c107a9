# R11: passing puts a marker on your own train; no pass while you can play, nor
# while you can still draw. R10: with no draw owed, the pass stands.
players ana bob
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-3
deal bob 2-2 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 2-12 3-3 3-4 3-5 3-6 3-7
ana pass
!must-draw R11
ana draw 5-5
ok
ana pass
ok
# ana's train now carries a marker: bob may play on it
bob play 2-12 ana
ok
ana play 1-2 ana
ok
# bob holds no 1 and no 12: draw, then pass
bob pass
!must-draw R11
bob draw 6-6
ok
bob pass
ok
# ana's train ends in 1 and she holds 0-1 and 1-1: no pass; bob's marked train ends in 12
ana pass
!must-play R11
ana play 1-1 bob
!no-match R7
