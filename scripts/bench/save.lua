-- wrk script: each thread (one connection each: -t N -c N) saves its own draft again and again
-- with editArticle, taking the version each answer gives for the next save (a stale one is a
-- CONFLICT). The body changes with every save, as an editor's does, and the editor stays its
-- contributor ($ME, their user id: a draft's contributors may change it). $ARTICLES lists the
-- drafts as id:version,…; $HTML_FILE holds the body's HTML, JSON-escaped. Prints the errors at the end.
local threads = {}

function setup(thread)
  thread:set("index", #threads)
  table.insert(threads, thread)
end

function init(args)
  local i = 0
  for pair in string.gmatch(os.getenv("ARTICLES"), "[^,]+") do
    if i == index then
      article, version = pair:match("([^:]+):(%d+)")
    end
    i = i + 1
  end
  local handle = assert(io.open(os.getenv("HTML_FILE"), "rb"))
  html = handle:read("*a")
  handle:close()
  saves, errors = 0, 0
end

function request()
  saves = saves + 1
  local body = '{"query":"mutation($item: ArticleInput!) { editArticle(item: $item) { _id version } }",' ..
    '"variables":{"item":{"_id":"' .. article .. '","version":' .. version .. ',"title":"Weekly oil outlook, take ' .. saves ..
    '","summary":"Prices up","contributors":["' .. os.getenv("ME") .. '"],"html":"<p>Take ' .. saves .. ' of ' .. index .. '.</p>' .. html .. '"}}}'
  return wrk.format("POST", nil, {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. os.getenv("TOKEN")}, body)
end

function response(status, headers, body)
  local next_version = body:match('"version":(%d+)')
  if status == 200 and next_version then
    version = next_version
  else
    errors = errors + 1
  end
end

function done(summary, latency, requests)
  local errors = 0
  for _, thread in ipairs(threads) do
    errors = errors + thread:get("errors")
  end
  io.write(string.format("save errors: %d\n", errors))
end
