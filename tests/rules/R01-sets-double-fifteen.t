# R1, R2, R3, R5 under double-fifteen: 136 tiles, pips 0 to 15 (15-15 is a tile of
# the set, 16-0 is not); 2 to 12 players, 10 tiles each for 11-12; 16 rounds by
# default, or 8, or 1; round 1 uses 15-15, which no hand may hold.
# args: --rules double-fifteen
players 13
!syntax R2
rounds 13
!syntax R3
rounds 8
ok
players 12
deal p1 1-9 2-6 3-3 3-4 4-5 6-6 8-12 9-11 10-11 15-15
!bad-deal R5
deal p1 1-9 2-6 3-3 3-4 4-5 6-6 8-12 9-11 10-11 16-0
!syntax
deal p1 1-9 2-6 3-3 3-4 4-5 6-6 8-12 9-11 10-11 11-14 12-14
!bad-deal R5
deal p1 1-9 2-6 3-3 3-4 4-5 6-6 8-12 9-11 10-11 11-14
ok
deal p2 0-5 0-7 0-11 0-12 1-6 1-10 2-9 2-12 5-13 14-15
ok
deal p3 2-2 2-10 4-8 5-7 7-9 11-12 1-14 9-14 13-14 12-15
ok
deal p4 1-11 2-7 4-12 6-10 9-9 10-12 6-13 8-13 8-14 14-14
ok
deal p5 0-6 0-8 1-2 1-12 3-7 3-11 5-12 8-10 12-13 3-14
ok
deal p6 0-9 1-5 1-8 2-3 2-11 4-11 7-8 9-10 3-13 13-15
ok
deal p7 3-5 3-8 5-11 6-12 8-8 12-12 0-13 10-13 7-14 7-15
ok
deal p8 0-0 1-3 2-8 5-5 7-11 11-11 4-13 12-14 3-15 4-15
ok
deal p9 2-4 3-12 5-10 6-11 7-7 7-10 1-13 6-14 6-15 10-15
ok
deal p10 0-1 2-5 4-9 5-8 7-12 2-13 7-13 13-13 0-14 8-15
ok
deal p11 1-4 4-4 4-10 6-8 11-13 2-14 5-14 2-15 9-15 11-15
ok
deal p12 0-3 0-4 1-7 3-6 4-6 4-7 5-9 6-9 9-13 4-14

p1 draw 0-10
ok
p1 pass
ok
p2 play 14-15 p2
ok
p3 play 12-15 p3
ok
p4 draw 10-10
ok
p4 pass
ok
p5 draw 0-15
ok
p5 play 0-15 p5
ok
p6 play 13-15 p6
ok
p7 play 7-15 p7
ok
p8 play 4-15 p8
ok
p9 play 10-15 p9
ok
p10 play 8-15 p10
ok
p11 play 11-15 p11
ok
p12 draw 1-1
ok
p12 pass
ok
p1 draw 8-11
ok
p1 pass
ok
p2 draw 5-15
ok
p2 play 5-15 p1
ok
p3 play 11-12 p3
ok
p4 draw 1-15
ok
p4 play 1-15 p4
ok
# p3's train ends in 12 now; a pip above 15 is still syntax, before not-your-turn
p1 play 12-16 p3
!syntax
p5 play 15-16 p5
!syntax
