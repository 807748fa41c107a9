# R16: who cannot cover draws once, then covers or passes, and the duty moves on.
# three players: p1 lays 5-5 on its own train, cannot cover, draws 1-2 and passes;
# p2 is to cover, holding nothing: the duty goes round the table;
# p3 draws a cover and lays it on the double, where it lies
players 3
deal p1 0-12 1-12 3-4 3-6 3-7 3-8 3-9 3-10 3-11 4-4 4-6 4-7 4-8 5-5 5-12
deal p2 0-3 0-6 1-6 1-11 2-2 2-3 2-4 2-6 2-7 2-8 2-9 2-10 2-11 2-12 3-3
deal p3 0-0 0-1 0-2 0-4 0-7 0-8 0-9 0-10 0-11 1-1 1-7 1-8 1-9 1-10 3-12
p1 play 5-12 p1
p2 play 2-12 p2
p3 play 3-12 p3
p1 play 5-5 p1
p1 draw 1-2
p1 pass
? marked p1
p1 draw 1-3
!not-your-turn R24
p2 pass
!must-draw R11
p2 draw 1-3
p2 pass
? marked p2
p3 draw 5-8
p3 pass
!must-play R11
p3 draw 1-4
!must-play R8
p3 play 8-5 mex
!must-cover R15
p3 play 8-5 p3
!must-cover R15
p3 play 8-5 p1
ok
? uncovered 0
? marked p1
p3 pass
!not-your-turn R24
---
# three players: p1 lays 5-5 on its own train, cannot cover, draws 1-2 and passes;
# p2 is to cover: the layer covers on a later turn (a new play,
# a new draw) and loses its marker (R12)
players 3
deal p1 0-12 1-12 3-4 3-6 3-7 3-8 3-9 3-10 3-11 4-4 4-6 4-7 4-8 5-5 5-12
deal p2 0-3 0-6 1-6 1-11 2-2 2-3 2-4 2-6 2-7 2-8 2-9 2-10 2-11 2-12 3-3
deal p3 0-0 0-1 0-2 0-4 0-7 0-8 0-9 0-10 0-11 1-1 1-7 1-8 1-9 1-10 3-12
p1 play 5-12 p1
p2 play 2-12 p2
p3 play 3-12 p3
p1 play 5-5 p1
p1 draw 1-2
p1 pass
? marked p1
p2 draw 1-3
p2 pass
p3 draw 1-4
p3 pass
p1 pass
!must-draw R11
p1 draw 5-9
p1 play 9-5 p1
? unmarked p1
p2 play 2-9 p1
!train-closed R7
---
# a drawn cover goes on the double, and the drawer keeps the turn for it
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-6 0-7 0-8 0-9 0-10 0-11 0-12 1-1 5-5 5-12
deal p2 1-3 1-4 1-6 1-7 1-8 1-9 1-10 1-11 1-12 2-2 2-3 2-4 2-6 2-7 9-12
p1 play 5-12 p1
p2 play 9-12 p2
p1 play 5-5 p1
p1 draw 7-5
p1 pass
!must-play R11
p1 draw 1-2
!must-play R8
p1 play 5-7 p1
ok
? open p1 7
---
# eight players empty the ten-tile boneyard; p8 lays 0-0 with no 0 left in hand
# and, the boneyard empty, passes without drawing; p1 holds 0s: not blocked
players 8
deal p1 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10
deal p2 0-11 1-1 1-11 2-2 2-4 2-5 2-6 2-7 2-8 2-9
deal p3 2-10 2-11 3-3 3-4 3-5 3-6 3-7 3-8 3-9 3-10
deal p4 3-11 4-4 4-5 4-6 4-7 4-8 4-9 4-10 4-11 5-5
deal p5 5-6 5-7 5-8 5-9 5-10 5-11 6-6 6-7 6-8 6-9
deal p6 6-10 6-11 7-7 7-8 7-9 7-10 7-11 8-8 8-9 8-10
deal p7 8-11 9-9 9-10 9-11 9-12 10-10 10-11 10-12 11-11 11-12
deal p8 0-0 0-12 1-12 2-12 3-12 4-12 5-12 6-12 7-12 8-12
p1 draw 1-2
p1 pass
p2 draw 1-3
p2 pass
p3 draw 1-4
p3 pass
p4 draw 1-5
p4 pass
p5 draw 1-6
p5 pass
p6 draw 1-7
p6 pass
p7 play 10-12 p7
p8 play 0-12 p8
p1 draw 1-8
p1 pass
p2 draw 1-9
p2 pass
p3 draw 1-10
p3 pass
p4 draw 2-3
p4 pass
? boneyard 0
p5 pass
p6 pass
p7 play 11-12 mex
p8 play 0-0 p8
p8 draw 0-1
!boneyard-empty R10
p8 pass
ok
? marked p8
p1 pass
!must-play R11
p1 play 0-1 mex
!must-cover R15
p1 play 0-1 p8
ok
