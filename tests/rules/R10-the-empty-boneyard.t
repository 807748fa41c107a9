# R10: nothing to play and nothing to draw: pass (without a draw when the boneyard
# is empty).
# eight players, ten tiles in the boneyard: p1..p6 draw and pass, p7 and p8 open
# their trains, p1..p4 draw the rest; p4 drew the last tile
# boneyard-empty for a draw (before not-in-boneyard); a pass without a draw stands
players 8
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9
deal p2 0-10 0-11 1-1 1-11 2-2 2-4 2-5 2-6 2-7 2-8
deal p3 2-9 2-10 2-11 3-3 3-4 3-5 3-6 3-7 3-8 3-9
deal p4 3-10 3-11 4-4 4-5 4-6 4-7 4-8 4-9 4-10 4-11
deal p5 5-5 5-6 5-7 5-8 5-9 5-10 5-11 6-6 6-7 6-8
deal p6 6-9 6-10 6-11 7-7 7-8 7-9 7-10 7-11 8-8 8-9
deal p7 8-10 8-11 9-9 9-10 9-11 10-10 10-11 10-12 11-11 11-12
deal p8 0-12 1-12 2-12 3-12 4-12 5-12 6-12 7-12 8-12 9-12
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
? marked p6
p7 play 10-12 p7
p8 play 0-12 p8
p1 draw 1-8
p1 pass
p2 draw 1-9
p2 pass
p3 draw 1-10
p3 pass
p4 draw 2-3
? boneyard 0
p4 pass
p5 draw 2-3
!boneyard-empty R10
p5 draw 12-12
!boneyard-empty R10
p5 pass
ok
p6 pass
ok
# p7 holds 11-12
p7 pass
!must-play R11
---
# eight players, ten tiles in the boneyard: p1..p6 draw and pass, p7 and p8 open
# their trains, p1..p4 draw the rest; p4 drew the last tile
# already-drawn before boneyard-empty
players 8
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9
deal p2 0-10 0-11 1-1 1-11 2-2 2-4 2-5 2-6 2-7 2-8
deal p3 2-9 2-10 2-11 3-3 3-4 3-5 3-6 3-7 3-8 3-9
deal p4 3-10 3-11 4-4 4-5 4-6 4-7 4-8 4-9 4-10 4-11
deal p5 5-5 5-6 5-7 5-8 5-9 5-10 5-11 6-6 6-7 6-8
deal p6 6-9 6-10 6-11 7-7 7-8 7-9 7-10 7-11 8-8 8-9
deal p7 8-10 8-11 9-9 9-10 9-11 10-10 10-11 10-12 11-11 11-12
deal p8 0-12 1-12 2-12 3-12 4-12 5-12 6-12 7-12 8-12 9-12
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
? boneyard 0
p4 draw 2-4
!already-drawn R9
p4 draw 2-3
!already-drawn R9
---
# eight players, ten tiles in the boneyard: p1..p6 draw and pass, p7 and p8 open
# their trains, p1..p4 draw the rest; p4 drew the last tile (9-12, which fits)
# must-play before already-drawn and boneyard-empty
players 8
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9
deal p2 0-10 0-11 1-1 1-11 2-2 2-3 2-4 2-5 2-6 2-7
deal p3 2-8 2-9 2-10 2-11 3-3 3-4 3-5 3-6 3-7 3-8
deal p4 3-9 3-10 3-11 4-4 4-5 4-6 4-7 4-8 4-9 4-10
deal p5 4-11 5-5 5-6 5-7 5-8 5-9 5-10 5-11 6-6 6-7
deal p6 6-8 6-9 6-10 6-11 7-7 7-8 7-9 7-10 7-11 8-8
deal p7 8-9 8-10 8-11 9-9 9-10 9-11 10-10 10-11 10-12 11-12
deal p8 0-12 1-12 2-12 3-12 4-12 5-12 6-12 7-12 8-12 11-11
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
p4 draw 9-12
? boneyard 0
p4 draw 2-3
!must-play R8
p4 pass
!must-play R11
p4 play 9-12 p4
ok
p5 pass
ok
