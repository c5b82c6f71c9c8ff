#!/usr/bin/env bash
# The statistics pages' benchmark on the production-style setup: a private PostgreSQL
# and Redis on loopback ports in a temporary directory (config/bin/services, stopped
# again on exit), then bench/statistics_page.py, which builds a small club and one of
# 100,000 games, runs gunicorn with the query counter (bench/querycount.py) and stops it.
#
#     bash bench/statistics_page.sh [--games 100000] [--players 500] [--repeat 7]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source config/bin/services
.venv/bin/python bench/statistics_page.py "$@"
