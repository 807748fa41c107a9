# R1, R2, R3, R5 under double-nine: 55 tiles, pips 0 to 9, so 10-10 (and 9-10) is
# syntax; round 1 uses 9-9, which no hand may hold; 2 to 6 players, 10 tiles each for
# 2-4; 10 rounds by default, or 5, or 1, never 13.
# args: --rules double-nine
players 7
!syntax R2
rounds 13
!syntax R3
rounds 5
ok
players ana bob
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 10-10
!syntax
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 9-10
!syntax
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 9-9
!bad-deal R5
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 1-1
!bad-deal R5
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9
ok
deal bob 1-1 1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 2-2
ok
ana play 0-10 ana
!syntax
ana play 0-9 ana
ok
bob play 1-9 bob
ok
ana play 0-8 mex
!no-match R7
ana play 0-0 ana
ok
ana play 1-10 ana
!syntax
ana play 0-1 ana
ok
