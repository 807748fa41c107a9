# R15: while a double is uncovered, anyone's only play is the cover.
# three players: p1 lays 5-5 on its own train, cannot cover, draws 1-2 and passes;
# p2 is to cover; p2 holds a cover (5-6)
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
p2 play 2-9 p2
!must-cover R15
p2 play 5-6 mex
!must-cover R15
p2 draw 1-3
!must-play R8
p2 pass
!must-play R11
p2 play 6-5 p1
ok
---
# three players: p1 lays 5-5 on its own train, cannot cover, draws 1-2 and passes;
# p2 is to cover
# must-cover before train-closed (p3's train has no marker); not-in-hand first
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
p2 play 5-6 p3
!must-cover R15
p2 play 2-9 p3
!must-cover R15
p2 play 1-4 p3
!not-in-hand R23
---
# three players: p1 lays 5-5 on its own train, cannot cover, draws 1-2 and passes;
# p2 is to cover; p2 holds only 2-9, which fits its own train:
# a tile that fits elsewhere does not stop a draw for the cover
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
p2 pass
!must-draw R11
p2 draw 1-3
ok
p2 play 2-9 p2
!must-cover R15
p2 pass
ok
? marked p2
