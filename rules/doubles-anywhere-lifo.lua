-- doubles-anywhere-lifo: a double gives a free play anywhere; doubles left open
-- are covered by the next players, the last played first (seed 003).
return {
  description = "doubles give a free play; open doubles are covered last played first",
  doubles = "anywhere-lifo",
  incompatible = { ["doubles-anywhere-fifo"] = "open doubles cannot be covered both last-first and first-first" },
}
