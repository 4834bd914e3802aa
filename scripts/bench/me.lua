-- wrk script: the `me` query with a bearer token taken from $TOKEN.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
wrk.body = '{"query":"{ me { _id email name role trialState trialMinLeft tableauAccess } }"}'
