-- wrk script: POST the GraphQL request in $BODY (or in the file $BODY_FILE, for bodies too large
-- for the environment) with the bearer token in $TOKEN.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
local file = os.getenv("BODY_FILE")
if file and file ~= "" then
  local handle = assert(io.open(file, "rb"))
  wrk.body = handle:read("*a")
  handle:close()
else
  wrk.body = os.getenv("BODY")
end
