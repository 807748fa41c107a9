# R10, R20: eight players hold 10 tiles each, so the boneyard holds 10. ana and bob
# hold all twelve tiles with a 12 and lay them in loops back to 12 on their own trains;
# the six others can never play, draw the boneyard dry, then pass without drawing.
# When bob lays the last 12 every train ends in 12 and nobody holds one: blocked.
players ana bob cid dan eve fay gus hal
deal ana 0-12 0-1 1-12 2-12 2-3 3-12 4-12 4-5 5-12 0-2
deal bob 6-12 6-7 7-12 8-12 8-9 9-12 10-12 10-11 11-12 6-8
deal cid 0-0 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11
deal dan 1-1 1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10
deal eve 1-11 2-2 2-4 2-5 2-6 2-7 2-8 2-9 2-10 2-11
deal fay 3-3 3-4 3-5 3-6 3-7 3-8 3-9 3-10 3-11 4-4
deal gus 4-6 4-7 4-8 4-9 4-10 4-11 5-5 5-6 5-7 5-8
deal hal 5-9 5-10 5-11 6-6 6-9 6-10 6-11 7-7 7-8 7-9
# the boneyard: 7-10 7-11 8-8 8-10 8-11 9-9 9-10 9-11 10-10 11-11
ana play 0-12 ana
bob play 6-12 bob
cid draw 7-10
cid pass
dan draw 7-11
dan pass
eve draw 8-8
eve pass
fay draw 8-10
fay pass
gus draw 8-11
gus pass
hal draw 9-9
hal pass
ana play 0-1 ana
bob play 6-7 bob
cid draw 9-10
cid pass
dan draw 9-11
dan pass
eve draw 10-10
eve pass
fay draw 11-11
fay pass
# the boneyard is empty: no draw is owed, the pass stands (R10)
gus draw 7-10
!boneyard-empty R10
gus pass
hal pass
ana play 1-12 ana
bob play 7-12 bob
cid pass
dan pass
eve pass
fay pass
gus pass
hal pass
ana play 2-12 ana
bob play 8-12 bob
cid pass
dan pass
eve pass
fay pass
gus pass
hal pass
ana play 2-3 ana
bob play 8-9 bob
cid pass
dan pass
eve pass
fay pass
gus pass
hal pass
ana play 3-12 ana
bob play 9-12 bob
cid pass
dan pass
eve pass
fay pass
gus pass
hal pass
ana play 4-12 ana
bob play 10-12 bob
cid pass
dan pass
eve pass
fay pass
gus pass
hal pass
ana play 4-5 ana
bob play 10-11 bob
cid pass
dan pass
eve pass
fay pass
gus pass
hal pass
# bob still holds 11-12: not blocked yet
ana play 5-12 ana
ok
bob play 11-12 bob
ok blocked
# the round is over: nothing is played before round 2 is dealt
ana play 0-2 ana
!bad-deal R5
