-- wrk script: POST the GraphQL request in $BODY with the bearer token in $TOKEN.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
wrk.body = os.getenv("BODY")
