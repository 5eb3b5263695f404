#!/usr/bin/env bash
# Trace hashes of the bots: plays seeded games with every bot in every mode through the CLI
# (play --save, games export), hashes each game's event list (without timestamps) and its outcome.
# A refactoring that keeps behaviour gives the same file:  tools/trace_hashes.sh .venv/bin/nochmal before.txt
# Takes about a minute (the planner games are most of it).
set -e
BIN=$1; OUT=$2; TMP=$(mktemp -d); DB=$TMP/t.sqlite3
: > $OUT
run() {  # args for play
  "$BIN" play "$@" --save --db "$DB" --json > $TMP/out.json
  gid=$(python3 -c "import json;print(json.load(open('$TMP/out.json'))['game_id'])")
  "$BIN" games export "$gid" --db "$DB" --out $TMP/g.json
  h=$(python3 -c "
import json,hashlib
d=json.load(open('$TMP/g.json'))
ev=[{k:v for k,v in e.items() if k not in ('at',)} for e in d['events']]
o=json.load(open('$TMP/out.json')); o.pop('game_id',None)
print(hashlib.sha256(json.dumps([ev,o],sort_keys=True).encode()).hexdigest()[:16], len(ev))")
  echo "$* $h" >> $OUT
}
for s in 1 2 3; do
  run --mode solo --policy greedy --seed $s
  run --mode solo --policy random --seed $s
  run --mode base --players 3 --policy greedy --seed $s
  run --mode base --players 4 --policy random --seed $s
  for m in 1 2 3 4 5; do run --mode coop --players $((s+m%4)) --mission $m --policy greedy --seed $s; done
  run --mode coop --players 4 --mission 2 --policy random --seed $s
done
run --mode solo --policy planner --seed 1
run --mode base --players 2 --policy planner --seed 1
run --mode coop --players 1 --mission 5 --policy planner --seed 1
run --mode coop --players 2 --mission 1 --policy planner --seed 2
