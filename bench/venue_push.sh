#!/usr/bin/env bash
# Pushing a venue's evening to the club's site (issue 45, point 8) on a private
# PostgreSQL and Redis (config/bin/services, stopped again on exit); see
# bench/venue_push.py.
#
#     bash bench/venue_push.sh [--players 120] [--rounds 1] [--repeat 3]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source config/bin/services
.venv/bin/python bench/venue_push.py "$@"
