# R11: a pass puts a marker on the passer's own train, which opens it to all; no pass
# while a tile can be played (must-play) or a draw is owed (must-draw).
# a pass marks the train and opens it to all
players 3
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-3
deal p2 0-12 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 1-12 2-2 2-3 2-4 2-5 3-12
deal p3 2-6 2-7 2-8 2-9 2-10 2-11 2-12 3-3 3-4 3-5 3-6 3-7 3-8 3-9 4-12
? unmarked p1
p1 draw 5-6
p1 pass
? marked p1
p2 play 3-12 p3
!train-closed R7
p2 play 3-12 p1
ok
p3 play 4-3 p1
ok
---
# must-play for a pass with a playable tile, before must-draw
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 1-1 1-12
deal p2 1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 2-2 2-3 2-4 2-5 2-6
p1 pass
!must-play R11
---
# must-draw for a pass before the draw; the refused pass leaves no marker
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-3
deal p2 0-12 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 1-12 2-2 2-3 2-4 2-5 2-6
p1 pass
!must-draw R11
? unmarked p1
p1 draw 3-4
p1 pass
ok
