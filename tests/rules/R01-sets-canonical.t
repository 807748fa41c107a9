# R1: the canonical set is double-twelve. A tile of a larger set (a pip 13 to 15) is
# syntax wherever a tile is written: in a deal, a play, a named draw; so is a pip above
# 15. The round starts from 12-12 as ever.
players ana bob
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-13
!syntax
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 15-15
!syntax
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 12-12
!bad-deal R5
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 11-12
ok
deal bob 2-2 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 3-3 3-4 3-5 3-6 3-7 3-12
ok
ana play 12-15 ana
!syntax
ana play 15-15 ana
!syntax
ana play 16-1 ana
!syntax
ana play 11-12 ana
ok
bob play 3-12 bob
ok
ana play 0-11 ana
ok
# syntax comes before must-play (bob holds 3-3)
bob draw 13-3
!syntax
bob play 3-3 bob
ok
bob play 3-13 bob
!syntax
bob play 3-4 bob
ok
