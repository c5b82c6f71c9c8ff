#!/usr/bin/env bash
# What one ply recorded live costs, on a private PostgreSQL and Redis
# (config/bin/services, stopped again on exit); see bench/ply_cost.py.
#
#     bash bench/ply_cost.sh [--plies 500]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source config/bin/services
.venv/bin/python bench/ply_cost.py "$@"
