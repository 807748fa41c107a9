# R12: a marker stays until its owner plays on their own train; the Mexican train
# never carries one.
# the marker stays through other players' plays on it and the owner's plays
# elsewhere, and goes when the owner plays on it
players 3
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 3-5 4-9
deal p2 0-12 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 1-12 2-2 4-10 5-12 7-8
deal p3 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 2-11 2-12 3-3 3-4 3-6 7-12 8-9
p1 draw 1-2
p1 pass
? marked p1
p2 play 5-12 mex
p3 play 7-12 p1
? marked p1
p1 play 5-3 mex
? marked p1
p2 play 7-8 p1
p3 play 8-9 p1
p1 play 9-4 p1
? unmarked p1
p2 play 4-10 p1
!train-closed R7
---
# a double on the Mexican train its layer cannot cover: the pass marks the
# layer's own train (R16), never the Mexican train where the double lies
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 5-5 5-12
deal p2 0-5 0-12 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 1-12 2-2 2-3 2-4
p1 play 12-5 mex
p2 play 12-1 p2
p1 play 5-5 mex
p1 draw 3-4
p1 pass
? marked p1
? unmarked mex
