# R7: a turn is one tile, on an open train (your own, the Mexican train, or a marked
# one), with a pip that matches its open end; the other pip becomes the open end.
# no-match: the tile lacks the open end's pip (12 on an empty train)
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 3-5 5-12
deal p2 1-1 1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 1-12 2-2 2-3 2-4
p1 play 3-5 p1
!no-match R7
p1 play 3-5 mex
!no-match R7
p1 play 12-5 p1
ok
---
# the other pip becomes the open end
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 3-5 3-8 5-7 5-12 8-8
deal p2 0-10 0-11 0-12 1-1 1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 4-6 4-9 9-12
# written low pip first: the 12 side goes against the engine
p1 play 5-12 p1
p2 play 12-9 p2
# p1's train is open at 3 now
p1 play 5-3 p1
p2 play 9-4 p2
p1 play 5-7 p1
!no-match R7
p1 play 8-8 p1
!no-match R7
p1 play 3-8 p1
ok
p2 play 6-4 p2
ok
# the 8 of 3-8 is open
p1 play 8-8 p1
ok
---
# exactly one tile a turn: after a play it is the next player's
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-2 1-12 3-12
deal p2 0-12 1-1 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 2-2 2-3 2-4 4-12
p1 play 1-12 p1
p1 play 1-2 p1
!not-your-turn R24
p1 play 3-12 mex
!not-your-turn R24
p2 play 4-12 p2
ok
---
# the first turn of a round is a play too: no draw or pass while a tile fits
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-12
deal p2 0-12 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 2-2 2-3 2-4 2-5 2-6
p1 draw 5-6
!must-play R8
p1 pass
!must-play R11
p1 play 12-1 mex
ok
---
# train-closed: another player's train without a marker
players 2
deal p1 0-12 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 1-12 2-2 2-3 2-4 2-5 2-12
deal p2 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-3
p1 play 2-12 p2
!train-closed R7
p1 play 1-12 p1
# p2 cannot play, draws, passes: p2's train is marked
p2 draw 5-6
p2 pass
? marked p2
p1 play 2-12 p2
ok
---
# precedence: not-in-hand, then train-closed, then no-match
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 1-12 3-4
deal p2 1-1 1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 2-2 2-3 2-4 5-6
p1 play 7-8 p2
!not-in-hand R23
p1 play 5-6 mex
!not-in-hand R23
p1 play 3-4 p2
!train-closed R7
p1 play 3-4 p1
!no-match R7
