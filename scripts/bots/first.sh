#!/bin/sh
# A bot for mtref match (mtref-bot(7), text form): plays the first legal action offered.
while IFS= read -r line; do
  case $line in
    "hello "*) echo "hello 1 first.sh" ;;
    "view "*) pick= ;;
    "legal "*) [ -z "$pick" ] && pick=${line#legal } ;;
    "go "*) set -- $line; echo "$2 $pick" ;;
    bye) exit 0 ;;
  esac
done
