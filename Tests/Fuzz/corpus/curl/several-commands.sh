#!/bin/sh
# Two requests, copied from a terminal session
curl -sS -X PUT "https://api.example.org/items/7" -H "Content-Type: application/json" -d '{"name":"widget"}'

curl -u ada:lovelace -A 'reqtop-test/1.0' -e https://ref.example.org/ -kLI https://api.example.org/health
curl --url https://api.example.org/search -G -d q=swift --data-urlencode 'tag=a b' -m 5
curl -X POST https://api.example.org/form --data-urlencode 'name=Ada Lovelace' --data-urlencode 'lang=en'
