#!/usr/bin/env bash
# The venue without signal's benchmark (issue 25, Measure) on PostgreSQL and Redis: a
# private PostgreSQL and Redis on loopback ports in a temporary directory
# (config/bin/services, stopped again on exit), then bench/offline.py, which serves the
# site from Django's threaded live server and drives headless Chromium.
#
#     bash bench/offline.sh [--games 10] [--repeat 3] [--taps 40] [--sync 1000] [--alone] [--sync-only]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source config/bin/services
.venv/bin/python bench/offline.py "$@"
