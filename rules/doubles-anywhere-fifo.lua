-- doubles-anywhere-fifo: as doubles-anywhere-lifo, but open doubles are covered in
-- the order they were played (seed 004).
return {
  description = "doubles give a free play; open doubles are covered first played first",
  doubles = "anywhere-fifo",
  incompatible = { ["doubles-anywhere-lifo"] = "open doubles cannot be covered both last-first and first-first" },
}
