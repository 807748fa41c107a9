return {
  tile_vaule = function(a, b) return a + b end,
}
