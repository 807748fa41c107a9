# R14: who lays a double plays again, and that play must cover it.
# must-cover: a tile that fits mex is no cover; settled: a tile without the
# double's pip on the double's own train is must-cover, not no-match; not-in-hand first
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 3-5 5-5 5-12 8-12
deal p2 0-11 0-12 1-1 1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 4-9 9-12
p1 play 5-12 p1
p2 play 9-12 p2
p1 play 5-5 p1
p2 play 4-9 p2
!not-your-turn R24
p1 play 8-12 mex
!must-cover R14
p1 play 8-12 p1
!must-cover R14
p1 play 5-9 p1
!not-in-hand R23
p1 pass
!must-play R11
p1 play 3-5 p1
ok
? open p1 3
---
# must-cover before train-closed and no-match
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 1-2 3-5 5-5 5-12
deal p2 0-11 0-12 1-1 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 1-12 2-2 9-12
p1 play 5-12 p1
p2 play 9-12 p2
p1 play 5-5 p1
p1 play 1-2 p2
!must-cover R14
p1 play 3-5 p2
!must-cover R14
p1 play 1-2 mex
!must-cover R14
