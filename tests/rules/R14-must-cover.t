# R14: a double gives its player one more play, which must cover it: a tile with the
# double's pip, laid on the double. The cover ends the turn (R18).
players ana bob
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 1-1 5-11 11-11 11-12
deal bob 2-2 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 3-3 3-4 3-5 3-6 3-7 3-11
ana play 11-12 ana
bob draw 4-4
bob pass
ana play 11-11 ana
ok
# not a cover: another train, or a tile without the 11
ana play 5-11 mex
!must-cover R14
ana play 0-1 ana
!must-cover R14
# not-in-hand comes first, then must-cover before train-closed
ana play 3-11 ana
!not-in-hand R23
ana play 0-1 bob
!must-cover R14
ana draw 4-5
!must-play R8
ana pass
!must-play R11
ana play 5-11 ana
ok
# the cover ended ana's turn
ana play 0-5 ana
!not-your-turn R24
