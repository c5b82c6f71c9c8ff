#!/usr/bin/env bash
# Plain GETs of the public round page, the standings page and the standings API of a
# 1,000-player tournament beside /healthz (issue 44, point 4), on the production-style
# setup: a private PostgreSQL and Redis (config/bin/services, stopped again on exit),
# then bench/public_pages.py, which builds the tournament, runs gunicorn, wrk and a
# writer, and stops them all.
#
#     bash bench/public_pages.sh [--players 1000] [--seconds 20] [--clients 50]
#                                [--write-every 1] [--conditional] [--pages round,api]
#                                [--gzip]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v wrk >/dev/null 2>&1 || {
  echo "public_pages: wrk is missing (apt-get install -y wrk)" >&2
  exit 1
}
source config/bin/services
.venv/bin/python bench/public_pages.py "$@"
