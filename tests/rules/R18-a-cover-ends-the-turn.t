# R18: a cover ends the turn.
# of the layer of the double
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 3-4 3-5 4-12 5-5 5-12
deal p2 0-10 0-11 0-12 1-1 1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 4-9 9-12
p1 play 5-12 p1
p2 play 9-12 p2
p1 play 5-5 p1
p1 play 5-3 p1
p1 play 3-4 p1
!not-your-turn R24
p1 play 4-12 mex
!not-your-turn R24
p2 play 9-4 p2
ok
---
# three players: p1 lays 5-5 on its own train, cannot cover, draws 1-2 and passes;
# p2 is to cover; p2 covers: the cover ends p2's turn too
players 3
deal p1 0-12 1-12 3-3 3-4 3-6 3-7 3-8 3-9 3-10 3-11 4-4 4-6 4-7 5-5 5-12
deal p2 0-3 0-6 1-6 1-11 2-2 2-3 2-4 2-6 2-7 2-8 2-9 2-10 2-11 2-12 5-6
deal p3 0-0 0-1 0-2 0-4 0-7 0-8 0-9 0-10 0-11 1-1 1-7 1-8 1-9 1-10 3-12
p1 play 5-12 p1
p2 play 2-12 p2
p3 play 3-12 p3
p1 play 5-5 p1
p1 draw 1-2
p1 pass
? marked p1
p2 play 5-6 p1
p2 play 2-9 p2
!not-your-turn R24
p3 draw 1-3
ok
