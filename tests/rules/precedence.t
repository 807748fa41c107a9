# protocol.md, error codes: a line that breaks several rules reports the first of
# syntax, game-over, setup-closed, round-mismatch, unknown-player (actor, then train),
# bad-deal, not-your-turn, then for play: not-in-hand, must-cover, train-closed,
# no-match; for draw: must-play, already-drawn, boneyard-empty, not-in-boneyard; for
# pass: must-play, must-draw.
players ana bob
deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 11-12
# a move before bob's deal, by the wrong player: bad-deal first
bob play 2-2 bob
!bad-deal R5
# an unknown player and a missing deal: unknown-player first
cid play 2-2 bob
!unknown-player R2
deal bob 2-2 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 3-3 3-4 3-5 3-6 3-7 3-11
# syntax before setup-closed (a duplicate name), then setup-closed
players ana ana
!syntax R2
players cid dan
!setup-closed
# unknown actor, then unknown train, before not-your-turn
bob play 2-2 cid
!unknown-player R2
# not-your-turn before not-in-hand
bob play 0-1 ana
!not-your-turn R24
# not-in-hand before train-closed
ana play 3-12 bob
!not-in-hand R23
# train-closed before no-match
ana play 0-1 bob
!train-closed R7
# pass: must-play before must-draw
ana pass
!must-play R11
# draw: must-play before not-in-boneyard (0-1 is in ana's hand)
ana draw 0-1
!must-play R8
ana play 11-12 ana
# bob holds no 12: not-in-boneyard for a tile on the table or in a hand
bob draw 11-12
!not-in-boneyard R23
bob draw 2-2
!not-in-boneyard R23
bob draw 4-4
# already-drawn before not-in-boneyard
bob draw 0-1
!already-drawn R9
bob pass
# ana can play 0-11 on her own train
ana draw 5-5
!must-play R8
