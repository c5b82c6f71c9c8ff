#!/usr/bin/env bash
# Full rating recomputation benchmark against a private PostgreSQL (and Redis) started on
# loopback in a temporary directory and stopped again on exit (config/bin/services).
#
#     bench/ratings_recompute.sh [--games 1000000] [--players 2000] [--profile FILE]
#     bench/ratings_recompute.sh --games 100000      # quick run
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source config/bin/services
PYTHON=${PYTHON:-.venv/bin/python}
echo "== $(date -u +%FT%TZ) $(git rev-parse --short HEAD) load:$(uptime | sed 's/.*load average://')"
"$PYTHON" bench/ratings_recompute.py "$@"
echo "== load after:$(uptime | sed 's/.*load average://')"
