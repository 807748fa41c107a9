# R8: no draw while a tile in hand can be played on an open train.
# a tile for the own train
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-12
deal p2 0-12 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 2-2 2-3 2-4 2-5 2-6
p1 draw 5-6
!must-play R8
---
# a tile for the Mexican train only (7-12: mex is empty, p1's train ends in 1)
players 2
deal p1 0-0 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 1-12 2-2 7-12
deal p2 0-1 1-1 1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 2-3 2-4 2-12
p1 play 1-12 p1
p2 play 2-12 p2
p1 draw 5-6
!must-play R8
p1 play 7-12 mex
ok
---
# a tile for a marked train only: three players; p2's train is marked at 2,
# p3's unmarked at 12, mex at 5, p1's own at 4; p1 holds 2-6
players 3
deal p1 0-0 0-1 0-3 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-3 1-4 1-6 1-12 2-6
deal p2 0-4 0-5 0-12 1-5 1-7 1-8 1-9 1-10 1-11 2-12 4-4 4-5 4-6 4-7 4-8
deal p3 0-2 1-2 2-2 2-3 2-4 2-5 2-7 2-8 2-9 2-10 2-11 3-3 3-4 3-5 3-12
p1 play 1-12 p1
p2 play 2-12 p2
p3 play 3-12 mex
p1 play 1-4 p1
p2 draw 6-7
p2 pass
? marked p2
p3 play 3-5 mex
? open mex 5
p1 draw 9-10
!must-play R8
p1 pass
!must-play R11
p1 play 2-6 p2
ok
---
# a tile that fits only a closed train (9-12 on p3's) does not stop a draw
players 3
deal p1 0-0 0-1 0-3 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-3 1-4 1-6 1-12 9-12
deal p2 0-4 0-5 0-12 1-5 1-7 1-8 1-9 1-10 1-11 2-12 4-4 4-5 4-6 4-7 4-8
deal p3 0-2 1-2 2-2 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 2-11 3-3 3-5 3-12
p1 play 1-12 p1
p2 play 2-12 p2
p3 play 3-12 mex
p1 play 1-4 p1
p2 draw 6-7
p2 pass
? unmarked p3
p3 play 3-5 mex
p1 play 9-12 p3
!train-closed R7
p1 draw 9-10
ok
p1 pass
ok
---
# precedence: must-play before not-in-boneyard (3-4 is in p2's hand,
# 1-12 in p1's own, 12-12 is the engine)
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 1-1 1-12
deal p2 1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 2-2 2-3 2-4 2-5 3-4
p1 draw 3-4
!must-play R8
p1 draw 1-12
!must-play R8
p1 draw 12-12
!must-play R8
