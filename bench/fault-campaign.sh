#!/usr/bin/env bash
# The random fault campaign: N seeded runs, each with threads as ranks over the fault-injecting
# debug provider (hosts simulated by JCCL_HOST_ID), one collective, one size and one fault; each
# classified as correct, clear error, hang or wrong result. Prints every hang or wrong result with
# the command that replays it, then one line: "N runs: A correct, B clear errors, C hangs, D wrong results".
#
# Usage: bench/fault-campaign.sh N [--seed S] [-v]    (run i uses seed S+i; -v prints every run)
# Exit status 1 when any run hung or gave a wrong result.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] || { echo "usage: bench/fault-campaign.sh N [--seed S] [-v]" >&2; exit 2; }
exec "$here/bench/run-main.sh" dev.jccl.testkit.debug.FaultCampaign "$@"
