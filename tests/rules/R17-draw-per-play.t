# R17: the draw allowance is per play: ana draws a double, plays it, and may draw once
# more for its cover.
players ana bob
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 1-1 1-2 1-3 11-12
deal bob 2-2 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 3-3 3-4 3-5 3-6 3-7 3-12
ana play 11-12 ana
bob play 3-12 bob
# ana's train ends in 11, and she holds no 11
ana draw 11-11
ok
ana play 11-11 ana
ok
ana pass
!must-draw R11
ana draw 5-11
ok
# the drawn 5-11 covers: no more drawing
ana draw 4-11
!must-play R8
ana play 5-11 ana
ok
