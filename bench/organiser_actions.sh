#!/usr/bin/env bash
# The organiser's actions benchmark on the production-style setup: a private PostgreSQL
# and Redis on loopback ports in a temporary directory (config/bin/services, stopped
# again on exit), then bench/organiser_actions.py, which builds the tournaments, runs
# gunicorn with the query counter (bench/querycount.py) and stops it.
#
#     bash bench/organiser_actions.sh [--players 100,500] [--repeat 5] [--workers 2]
#         [--only manage,results]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source config/bin/services
.venv/bin/python bench/organiser_actions.py "$@"
