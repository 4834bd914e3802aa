#!/usr/bin/env bash
# Benchmark: client firms (issue 39), on a scratch database:
# (a) `insights-cli firms import` of a 10,000-firm CSV (two domains and an account number each) into
#     a database with 20,000 readers, 2,000 of them at the file's domains (they join their firms):
#     wall time and rows/s of the release binary, then the same file again (every row unchanged);
# (b) `insights-cli firms list`: wall time for the 10,000 firms.
# Prints the figures; asserts nothing. Needs a release build (make build).
source "$(dirname "$0")/common.sh"

work=$(mktemp -d)
trap 'stop; psql "$admin" -q -c "drop database if exists $db with (force)"; rm -f "$log"; rm -rf "$work"' EXIT
q() { psql "$DATABASE_URL" -tAc "$1"; }
firms=10000

psql "$admin" -q -c "drop database if exists $db with (force)" -c "create database $db"
"$bin" migrate >/dev/null
# Readers as sign-in writes them: every tenth at one of the file's domains.
q "insert into users (user_id, subject, email, name, role, scopes)
   select lpad(to_hex(i), 24, '0'), 'dev|bench' || i,
          case when i % 10 = 0 then 'reader' || i || '@firm' || (i / 10) % $firms || '.example' else 'reader' || i || '@elsewhere' || i || '.example' end,
          'Reader ' || i, 'Subscriber', '{insights:content-reader}'
   from generate_series(1, 20000) i" >/dev/null
python3 - "$work/firms.csv" "$firms" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
with open(path, "w", newline="") as f:
    f.write("\ufeffname,domains,account number\r\n")
    for i in range(n):
        f.write(f'"Firm {i:05d}, Ltd",firm{i}.example;firm{i}-group.example,ACC-{i:06d}\r\n')
PY

timed() { # label cmd...
  local label=$1 started wall
  shift
  started=$(date +%s.%N)
  "$@" >"$work/out.txt" 2>&1 || { cat "$work/out.txt"; exit 1; }
  wall=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$started" "$(date +%s.%N)")
  echo "$label: $wall s ($(python3 -c "print(f'{$firms / $wall:.0f}')") rows/s)"
  sed 's/^/    /' "$work/out.txt" | head -12
}

echo "== firms import: $firms firms, 20,000 readers (2,000 at the file's domains)"
timed "first import" "$bin" firms import "$work/firms.csv"
echo "  members: $(q 'select count(*) from firm_member'), domains: $(q 'select count(*) from firm_domain')"
timed "second import (nothing to change)" "$bin" firms import "$work/firms.csv"
started=$(date +%s.%N)
"$bin" firms list >"$work/list.txt"
echo "firms list: $(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$started" "$(date +%s.%N)") s, $(($(wc -l <"$work/list.txt") - 1)) rows"
