# R9: one draw a play; a drawn tile that fits must be played, one that does not is
# followed by a pass.
# a drawn tile that fits must be played (must-play before already-drawn)
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-3
deal p2 0-12 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 1-12 2-2 2-3 2-4 2-5 2-6
p1 draw 12-7
ok
p1 pass
!must-play R11
p1 draw 3-4
!must-play R8
p1 play 7-12 p1
ok
p1 pass
!not-your-turn R24
---
# a drawn tile that does not fit is followed by a pass, which marks the train
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-3
deal p2 0-12 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 1-12 2-2 2-3 2-4 2-5 2-6
p1 draw 3-4
p1 play 3-4 p1
!no-match R7
p1 pass
ok
? marked p1
p2 play 1-12 p1
ok
---
# already-drawn for a second draw, before not-in-boneyard
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-3
deal p2 0-12 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 1-12 2-2 2-3 2-4 2-5 5-5
p1 draw 3-4
p1 draw 6-7
!already-drawn R9
p1 draw 5-5
!already-drawn R9
p1 draw 3-4
!already-drawn R9
---
# each play (each turn here) has its own draw
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-3
deal p2 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 2-2 2-3 2-4 2-5 2-6 2-7 2-8
p1 draw 3-4
p1 pass
p2 draw 6-7
p2 pass
p1 draw 8-9
p1 pass
