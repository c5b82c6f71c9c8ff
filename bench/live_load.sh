#!/usr/bin/env bash
# The live tables' load benchmark on the production-style setup: a private PostgreSQL
# and Redis on loopback ports in a temporary directory (config/bin/services, stopped
# again on exit), then bench/live_load.py, which builds the tournament, runs the two
# gunicorns of docs/operations.md (the web process, config.wsgi with sync workers, takes
# the plies; the live process, config.asgi with config.asgi_worker.LiveTablesWorker,
# holds the sockets), the spectators' sockets and the recorders, and stops them all. The
# services' directory is passed on so that the bench can read PostgreSQL's and Redis's
# CPU time from /proc.
#
#     bash bench/live_load.sh [--tables 60] [--spectators 300] [--every 10] [--seconds 120]
#                             [--workers 2] [--web-workers 2 (0: all on ASGI)]
#                             [--connect-seconds 10] [--drain 5] [--sample] [--deflate]
#                             [--no-deflate] [--layer-socket-timeout S]
#                             (bench/live_load.py explains)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source config/bin/services
LIVE_LOAD_SERVICES_DIR="$SERVICES_DIR" .venv/bin/python bench/live_load.py "$@"
