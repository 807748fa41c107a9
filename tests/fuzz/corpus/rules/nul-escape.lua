return {
  ["may_play\0x"] = 1,
  doubles = "anywhere-lifo\0junk",
  description = "\27]0;t\7\n",
}
