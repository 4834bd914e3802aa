#!/usr/bin/env bash
# Benchmark: small hostile requests without a token (issue 35), against a release server on an
# empty scratch database. For each: the time until the server answers (and the status), while a
# second client polls /healthz every 50 ms; the slowest /healthz answer during it is printed too.
# - a 546-byte document of 10 levels of fragments, each spreading the next four times (4^10 spreads);
# - two of those at once;
# - an 8 MB body of GraphQL comments;
# - `{ __typename × 200000 }` (about 2 MB);
# - `"copper " × 1000` as search text, signed in (a reader's token).
# Prints the figures; asserts nothing. BENCH_BIN (common.sh) measures another binary.
source "$(dirname "$0")/common.sh"

work=$(mktemp -d)
trap 'stop; drop_db; rm -f "$log"; rm -rf "$work"' EXIT

echo "== $("$bin" --version)"
"$bin" migrate >/dev/null
TOKEN=$("$bin" token --email hostile.reader@client.example --name "Hostile Reader" --role subscriber --ttl 1h)
start INSIGHTS_NO_WORKER=true

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def write(name, query, variables=None):
    with open(f"{work}/{name}.json", "w") as f:
        json.dump({"query": query, "variables": variables or {}}, f)
levels = 10
doc = "query { ...F0 }"
for level in range(levels):
    doc += " fragment F%d on Query {%s }" % (level, (" ...F%d" % (level + 1)) * 4)
doc += " fragment F%d on Query { __typename }" % levels
write("fanout", doc)
write("comments", "{ __typename }\n" + ("# " + "x" * 98 + "\n") * 80_000)
write("typename", "{ " + "__typename " * 200_000 + "}")
write("search", "query($p: SearchArticlesParams) { searchArticles(params: $p, first: 9) { totalCount } }", {"p": {"searchQuery": "copper " * 1000}})
PY

# name file [token] [copies]: time one request (or several at once) while /healthz is polled.
hostile() {
  local name=$1 file=$2 token=${3:-} copies=${4:-1}
  python3 - "$url" "$file" "$token" "$copies" "$name" <<'PY'
import sys, threading, time, urllib.request, urllib.error
url, file, token, copies, name = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
body = open(file, "rb").read()
done = threading.Event()
health = []
def poll():
    while not done.is_set():
        t = time.perf_counter()
        try:
            urllib.request.urlopen(url + "/healthz", timeout=60).read()
        except Exception:
            pass
        health.append(time.perf_counter() - t)
        time.sleep(0.05)
results = []
def send():
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = "Bearer " + token
    t = time.perf_counter()
    try:
        r = urllib.request.urlopen(urllib.request.Request(url + "/graphql", data=body, headers=headers), timeout=120)
        status, text = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read()
    except (urllib.error.URLError, ConnectionError) as e:
        # A body refused before it is read: the server answers 413 and closes while we still send.
        status, text = "closed", str(getattr(e, "reason", e)).encode()
    results.append((time.perf_counter() - t, status, text[:160].decode("utf-8", "replace")))
poller = threading.Thread(target=poll); poller.start()
time.sleep(0.2)
senders = [threading.Thread(target=send) for _ in range(copies)]
for s in senders: s.start()
for s in senders: s.join()
time.sleep(0.2); done.set(); poller.join()
slowest = max(r[0] for r in results)
print("%-44s %6.0f ms  HTTP %s  /healthz slowest %4.0f ms  %s" % (name + (" (x%d at once)" % copies if copies > 1 else ""), slowest * 1000, results[0][1], max(health) * 1000, results[0][2].replace("\n", " ")[:90]))
PY
}

echo "== $(wc -c <"$work/fanout.json") bytes fan-out; $(wc -c <"$work/comments.json") bytes comments; $(wc -c <"$work/typename.json") bytes __typename"
hostile "fragment fan-out (4^10 spreads)" "$work/fanout.json"
hostile "fragment fan-out (4^10 spreads)" "$work/fanout.json" "" 2
hostile "8 MB of comments" "$work/comments.json"
hostile "__typename x 200000" "$work/typename.json"
hostile "__typename x 200000, signed in" "$work/typename.json" "$TOKEN"
hostile "search 'copper ' x 1000, signed in" "$work/search.json" "$TOKEN"
