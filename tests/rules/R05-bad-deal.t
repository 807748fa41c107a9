# R5, R23: a deal gives each of 2-4 players 15 distinct tiles of the set, never the
# engine (12-12 in round 1), and no tile to two players.
players ana bob
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2
!bad-deal R5
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 11-12 1-3
!bad-deal R5
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 12-12
!bad-deal R5
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 2-1
!bad-deal R23
deal
!syntax
deal bob
!bad-deal R5
# a move before every hand is dealt
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 11-12
ana play 11-12 ana
!bad-deal R5
# bob may not be dealt a tile ana holds (0-11), nor may ana be dealt twice
deal bob 2-2 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 3-3 3-4 3-5 3-6 3-7 0-11
!bad-deal R23
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 11-12
!bad-deal R5
deal bob 2-2 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 3-3 3-4 3-5 3-6 3-7 3-12
ok
ana play 11-12 ana
