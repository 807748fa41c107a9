# R13: a double is played like any tile: on a train that ends in its pip, the Mexican
# train too.
# a double needs a train that ends in its pip
players 2
deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 3-5 5-5 5-12
deal p2 0-12 1-1 1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 2-9 9-9 9-12
p1 play 5-5 p1
!no-match R7
p1 play 5-5 mex
!no-match R7
p1 play 5-12 p1
p2 play 9-12 mex
p1 play 5-5 mex
!no-match R7
p1 play 5-5 p1
ok
p1 play 5-3 p1
p2 play 9-9 mex
ok
p2 play 2-9 mex
ok
