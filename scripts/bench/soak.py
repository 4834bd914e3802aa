#!/usr/bin/env python3
"""The load of scripts/bench/soak.sh: a fixed request rate (open loop: each request has its slot in
time, whatever the answers before it) with a realistic mix, for a fixed time; a publish with
notification each minute; the server's resident memory sampled every 10 s. Prints a table of
throughput, p50/p99 and errors per operation, and the memory at the start and the end.

  soak.py URL WORK_DIR SERVER_PID SECONDS RATE

WORK_DIR holds: readers.txt (reader tokens, one a line), staff.txt (an Administrator's token),
ids.txt (published article ids), channels.txt (channel ids), topics.txt (topic ids), publish.json
(the channel, topic and contributor of the minutely publish).
"""
import http.client, json, os, random, sys, threading, time, urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reader_queries import ARTICLE, CHANNEL_ARTICLES, FOR_YOU, SEARCH, for_you_variables

url, work, server_pid, seconds, rate = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
host = urllib.parse.urlsplit(url)
lines = lambda name: [l.strip() for l in open(os.path.join(work, name)) if l.strip()]
readers, staff = lines("readers.txt"), lines("staff.txt")[0]
ids, channels, topics = lines("ids.txt"), lines("channels.txt"), lines("topics.txt")
publish_setup = json.load(open(os.path.join(work, "publish.json")))

VIEW = "mutation($item: ArticleViewStatInput!) { addArticleViewStat(item: $item) { counted kind } }"
TOPICS = "{ categories { _id name parent } }"
STAFF_LIST = """query($params: ArticleListParams) { articles(params: $params) { total articles { _id title state publishDate lastEdited
  uniqueViews isPremium premiumExpiryOffset premiumExpiresAt canEdit canViewStats publishedBy { _id name type }
  categories { _id name } tags { _id name } contributors { _id name } } } }"""
USERS = "{ getPaginatedUsers(type: All) { total users { _id name email company role lastLogin } } }"
SAVE = "mutation($item: ArticleInput!) { editArticle(item: $item) { _id version } }"
ADD = "mutation($item: ArticleInput!) { addArticle(item: $item) { _id version } }"
PUBLISH = "mutation($item: ArticleInput!) { publishAdd(item: $item) { _id state } }"
WORDS = ["copper", "molybdenum", '"iron ore"', "iron", "ore", "copper iron"]


def post(connection, token, query, variables):
    body = json.dumps({"query": query, "variables": variables})
    connection.request("POST", "/graphql", body, {"content-type": "application/json", "authorization": "Bearer " + token})
    response = connection.getresponse()
    data = response.read()
    return response.status, data


class Worker:
    """One connection; a staff worker keeps one draft of its own to save again and again."""

    def __init__(self):
        self.connection = http.client.HTTPConnection(host.hostname, host.port, timeout=60)
        self.draft = None

    def request(self, token, query, variables):
        try:
            return post(self.connection, token, query, variables)
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection(host.hostname, host.port, timeout=60)
            raise

    def save(self):
        if self.draft is None:
            item = {"title": "Soak draft", "html": "<p>Draft.</p>", "summary": "A draft saved during the soak.",
                    "premiumChannelId": publish_setup["channel"], "isPremium": True}
            status, data = self.request(staff, ADD, {"item": item})
            answer = json.loads(data)
            if status != 200 or answer.get("errors"):
                return status, data
            self.draft = answer["data"]["addArticle"]
        draft = self.draft
        item = {"_id": draft["_id"], "version": draft["version"], "title": "Soak draft",
                "html": "<p>Draft, saved at %f.</p>" % time.time() + "<p>Brent crude rallied as output fell.</p>" * 40,
                "summary": "A draft saved during the soak.", "premiumChannelId": publish_setup["channel"], "isPremium": True}
        status, data = self.request(staff, SAVE, {"item": item})
        answer = json.loads(data)
        if status == 200 and not answer.get("errors"):
            self.draft = answer["data"]["editArticle"]
        else:
            self.draft = None
        return status, data


def reader():
    return random.choice(readers)


# (name, weight, how): 80 % reader pages, search and article reads; 20 % staff lists and saves.
OPERATIONS = [
    ("reader: article page", 28, lambda w: w.request(reader(), ARTICLE, {"id": random.choice(ids)})),
    ("reader: article view stat", 7, lambda w: w.request(reader(), VIEW, {"item": {"articleId": random.choice(ids), "type": "article", "session": f"soak-{random.getrandbits(48):x}"}})),
    ("reader: search", 20, lambda w: w.request(reader(), SEARCH, {"params": {"searchQuery": random.choice(WORDS)}, "first": 9})),
    ("reader: channel page", 10, lambda w: w.request(reader(), CHANNEL_ARTICLES, {"params": {"premiumChannelId": random.choice(channels)}, "first": 9})),
    ("reader: For You", 10, lambda w: w.request(reader(), FOR_YOU, for_you_variables(9))),
    ("reader: topics", 5, lambda w: w.request(reader(), TOPICS, {})),
    ("staff: article list", 6, lambda w: w.request(staff, STAFF_LIST, {"params": {}})),
    ("staff: article list, topic", 4, lambda w: w.request(staff, STAFF_LIST, {"params": {"categoryId": [random.choice(topics)]}})),
    ("staff: users list", 4, lambda w: w.request(staff, USERS, {})),
    ("staff: save a draft", 6, lambda w: w.save()),
]
CHOICES = [op for op in OPERATIONS for _ in range(op[1])]

lock = threading.Lock()
results = {}  # name -> [latencies in s], errors
errors = {}
error_samples = {}
late = [0]
next_slot = [0]
started = time.time() + 1.0
ends = started + seconds


def record(name, latency, failed, sample=None):
    with lock:
        results.setdefault(name, []).append(latency)
        if failed:
            errors[name] = errors.get(name, 0) + 1
            error_samples.setdefault(name, sample)


def run():
    worker = Worker()
    while True:
        with lock:
            slot = next_slot[0]
            next_slot[0] += 1
        at = started + slot / rate
        # Slots missed while the server was behind are not made up after the end.
        if at >= ends or time.time() >= ends:
            return
        wait = at - time.time()
        if wait > 0:
            time.sleep(wait)
        elif wait < -0.1:
            with lock:
                late[0] += 1
        name, _, how = random.choice(CHOICES)
        begun = time.time()
        try:
            status, data = how(worker)
            failed = status != 200 or b'"errors"' in data[:200000]
            sample = f"HTTP {status}: {data[:300]!r}" if failed else None
        except Exception as error:  # a refused or broken connection counts as an error
            failed, sample = True, repr(error)
        record(name, time.time() - begun, failed, sample)


def publisher():
    """A publish with notification each minute, by the Administrator."""
    worker = Worker()
    n = 0
    while time.time() < ends:
        n += 1
        at = started + 30 + (n - 1) * 60
        if at >= ends:
            return
        time.sleep(max(0, at - time.time()))
        item = {"title": f"Soak publish {n}", "html": "<p>Published during the soak.</p>", "summary": "A soak publish.",
                "premiumChannelId": publish_setup["channel"], "categories": [publish_setup["topic"]],
                "contributors": [publish_setup["contributor"]], "isPremium": True, "sendEmails": True}
        begun = time.time()
        try:
            status, data = worker.request(staff, PUBLISH, {"item": item})
            failed = status != 200 or b'"errors"' in data
            sample = f"HTTP {status}: {data[:300]!r}" if failed else None
        except Exception as error:
            failed, sample = True, repr(error)
        record("staff: publish with notification", time.time() - begun, failed, sample)


def rss_mb():
    with open(f"/proc/{server_pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


memory = []


def sampler():
    while time.time() < ends + 1:
        memory.append((time.time() - started, rss_mb()))
        time.sleep(10)


threads = [threading.Thread(target=run, daemon=True) for _ in range(int(os.environ.get("SOAK_CONNECTIONS", "32")))]
threads += [threading.Thread(target=publisher, daemon=True), threading.Thread(target=sampler, daemon=True)]
for thread in threads:
    thread.start()
last_report = time.time()
while time.time() < ends:
    time.sleep(1)
    if time.time() - last_report >= 60:
        last_report = time.time()
        with lock:
            done = sum(len(v) for v in results.values())
            failed = sum(errors.values())
        print(f"  {time.time() - started:5.0f} s: {done} requests, {failed} errors, server {rss_mb():.0f} MB", flush=True)
for thread in threads[:-1]:
    thread.join(timeout=90)

elapsed = seconds
total = sum(len(v) for v in results.values())
print()
print(f"{'operation':<36} {'requests':>9} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>7}")
for name, _, _ in OPERATIONS + [("staff: publish with notification", 0, None)]:
    latencies = sorted(results.get(name, []))
    if not latencies:
        continue
    pct = lambda p: latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000
    print(f"{name:<36} {len(latencies):>9} {len(latencies) / elapsed:>8.1f} {pct(0.5):>8.1f} {pct(0.99):>8.1f} "
          f"{latencies[-1] * 1000:>8.1f} {errors.get(name, 0):>7}")
print(f"{'all':<36} {total:>9} {total / elapsed:>8.1f} {'':>8} {'':>8} {'':>8} {sum(errors.values()):>7}")
print(f"requests started more than 100 ms after their slot: {late[0]} (the rate was {'not ' if late[0] > total / 100 else ''}sustained)")
if memory:
    print(f"server memory (resident): {memory[1][1] if len(memory) > 1 else memory[0][1]:.0f} MB at {memory[1][0] if len(memory) > 1 else 0:.0f} s, "
          f"{memory[-1][1]:.0f} MB at the end, peak {max(m for _, m in memory):.0f} MB")
for name, sample in error_samples.items():
    print(f"first error of {name}: {sample}")
