# R9: with no playable tile and a boneyard, draw exactly one tile; play it if it can
# be played, else pass. A second draw for the same play is already-drawn.
players ana bob
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-3
deal bob 2-2 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 2-12 3-3 3-4 3-5 3-6 3-7
# ana holds no 12: she draws 5-5, which does not fit either
ana draw 5-5
ok
ana draw 6-6
!already-drawn R9
ana play 5-5 mex
!no-match R7
ana pass
ok
# bob holds 2-12 and may not draw (must-play comes before already-drawn)
bob draw 6-6
!must-play R8
bob play 2-12 bob
ok
# a new play, a new draw: ana draws 4-12 and must play it
ana draw 4-12
ok
ana pass
!must-play R11
ana draw 6-6
!must-play R8
ana play 4-12 mex
ok
