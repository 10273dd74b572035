#!/usr/bin/env bash
# One command for a fresh clone: right Node, dependencies (scripts/node-env.sh), then `npm run <script> -- <args>`.
#   bash scripts/run.sh demo        bash scripts/run.sh test        bash scripts/run.sh map -- --ruleset duel --seed 5eed
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh
script="${1:-demo}"
shift || true
exec npm run "$script" "$@"
