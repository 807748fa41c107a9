# R7: one tile onto your own train, the Mexican train, or a marked train of another
# player, matching side against the open end; its other pip becomes the open end.
# R8: no draw while a tile can be played.
players ana bob
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 11-12
deal bob 2-2 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 3-3 3-4 3-5 3-6 3-7 3-12
# ana's only tile with a 12 is 11-12
ana draw 5-5
!must-play R8
ana pass
!must-play R11
ana play 0-1 ana
!no-match R7
ana play 3-12 ana
!not-in-hand R23
ana play 11-12 bob
!train-closed R7
ana play 11-12 ana
ok
# ana's train now ends in 11; bob's own train still in 12
bob play 2-3 bob
!no-match R7
bob play 3-12 ana
!train-closed R7
bob play 3-12 bob
ok
ana play 0-11 mex
!no-match R7
ana play 0-11 ana
ok
# bob's train now ends in 3
bob play 2-4 bob
!no-match R7
bob play 3-4 bob
ok
