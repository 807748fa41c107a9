# R12: a marker stays until its owner plays on their own train; playing on another's
# marked train leaves the marker. An unmarked train of another player is closed (R7).
players ana bob
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-4
deal bob 2-2 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 2-12 1-3 3-3 3-4 3-5 3-6
ana draw 5-5
ana pass
# ana's marker opens her train
bob play 2-12 ana
ok
# bob's train has no marker: closed, before any no-match
ana play 1-2 bob
!train-closed R7
ana play 1-2 ana
ok
# ana's own play took her marker off: her train (open end 1) is closed to bob again
bob play 1-3 ana
!train-closed R7
bob draw 6-6
bob pass
# now bob's train is marked and open to ana, but ends in 12
ana play 1-4 bob
!no-match R7
