# house-rules.md: two set files together are a refused pair, a rules error at the
# line that completes the pair; one set file alone is accepted.
rules double-nine
ok
rules double-fifteen
!rules
