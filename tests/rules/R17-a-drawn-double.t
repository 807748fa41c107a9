# R17: the draw allowance is per play: who drew and laid a double may draw again
# for the cover, once.
# p1 opens with 5-12, draws 5-5 and lays it; may draw again, but only once;
# then p2 owes the cover
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-4 1-6 5-12
deal p2 0-12 1-7 1-8 1-9 1-10 1-11 1-12 2-2 2-3 2-4 2-6 2-7 2-8 8-9 9-12
p1 play 5-12 p1
p2 play 9-12 p2
p1 draw 5-5
p1 pass
!must-play R11
p1 play 5-5 p1
p1 pass
!must-draw R11
p1 draw 1-2
ok
p1 draw 1-3
!already-drawn R9
p1 pass
ok
p2 draw 1-3
ok
---
# the second draw may be the cover
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-4 1-6 5-12
deal p2 0-12 1-7 1-8 1-9 1-10 1-11 1-12 2-2 2-3 2-4 2-6 2-7 2-8 8-9 9-12
p1 play 5-12 p1
p2 play 9-12 p2
p1 draw 5-5
p1 pass
!must-play R11
p1 play 5-5 p1
p1 draw 5-6
p1 pass
!must-play R11
p1 play 5-6 p1
ok
p2 play 9-8 p2
ok
