# R15, R16: while a double is uncovered the only play for anyone is its cover; the
# player who cannot cover draws, then passes, and the duty passes on.
players ana bob
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 1-1 1-2 11-11 11-12
deal bob 2-2 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 3-3 3-4 3-5 3-6 3-7 3-11
ana play 11-12 ana
bob draw 4-4
bob pass
ana play 11-11 ana
# ana holds no 11: she draws 4-6, which does not cover, and passes
ana pass
!must-draw R11
ana draw 4-6
ana pass
ok
# bob owes the cover now: nothing else, on no train
bob play 3-3 bob
!must-cover R15
bob play 3-4 mex
!must-cover R15
bob draw 5-5
!must-play R8
bob play 3-11 ana
ok
