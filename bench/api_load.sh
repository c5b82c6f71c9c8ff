#!/usr/bin/env bash
# The API load benchmark on the production-style setup: a private PostgreSQL and Redis
# on loopback ports in a temporary directory (config/bin/services, stopped again on
# exit), then bench/api_load.py, which builds the tournament, runs gunicorn, the
# pollers (wrk) and a writer, and stops them all.
#
#     bash bench/api_load.sh [--players 500] [--rounds 4] [--seconds 20] [--clients 100]
#                             [--workers 3] [--threads 1] [--think-ms 85] [--change-every 5]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v wrk >/dev/null 2>&1 || {
  echo "api_load: wrk is missing (apt-get install -y wrk)" >&2
  exit 1
}
source config/bin/services
.venv/bin/python bench/api_load.py "$@"
