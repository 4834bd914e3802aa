-- wrk script of scripts/bench/reader.sh: POSTs the GraphQL request in the file $BODY_FILE with the
-- bearer token in $TOKEN. With $ID_FILE (one id a line), every request gets a random id of that
-- file in place of __ID__ in the body.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")

local handle = assert(io.open(os.getenv("BODY_FILE"), "rb"))
local body = handle:read("*a")
handle:close()

local ids = {}
local id_file = os.getenv("ID_FILE")
if id_file and id_file ~= "" then
  for line in io.lines(id_file) do
    if line ~= "" then
      ids[#ids + 1] = line
    end
  end
end

-- Each thread its own random sequence.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

function init(args)
  math.randomseed(os.time() * 1000 + (thread_number or 0))
end

if #ids > 0 then
  request = function()
    local id = ids[math.random(#ids)]
    return wrk.format(nil, nil, nil, (body:gsub("__ID__", id)))
  end
else
  wrk.body = body
end
