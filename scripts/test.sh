#!/usr/bin/env bash
# The project's own tests: its unit tests plus the suite against the reference driver.
#
# Without arguments (the README's command, and CI's) it runs in two stages:
#  1. the suite against the reference driver, one shard per core (--shard K/N), each its
#     own pytest process: the suite's 106,000 small tests take a third longer under
#     pytest-xdist, whose workers send every test's reports to a controller;
#  2. tests/ under pytest-xdist (-n auto --dist worksteal): a few thousand tests, many of
#     them long pytester runs, which a worker that runs out takes from the other.
# Extra arguments go to one pytest run over both folders, as they are (for example
# `--durations=50`, or `--run-slow -m slow tests`).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh" || exit 1
cd "$root"
.venv/bin/python -m ruff check . || exit 1
.venv/bin/nnhal-generate --check || exit 1

# pytest's exit status 5 (no test collected) fails the run.
checked() {
  local status=$1 what=$2
  if [ "$status" -eq 5 ]; then
    echo "test: no test ran in $what (pytest exit code 5)" >&2
    return 1
  fi
  return "$status"
}

if [ "$#" -gt 0 ]; then
  # --dist worksteal: a worker that runs out of tests takes queued ones from the other, so
  # the slow pytester runs of the project's tests, collected last, do not pile up on one
  # worker while the other idles (xdist's default hands each worker its share up front).
  .venv/bin/python -m pytest -n auto --dist worksteal -p no:cacheprovider --nnhal-profile=ci "$@"
  checked $? "pytest $*"
  exit $?
fi

shards="$(nproc 2>/dev/null || echo 2)"
[ "$shards" -ge 1 ] 2>/dev/null || shards=1
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
echo "test: stage 1: the suite against the reference driver, $shards shards"
pids=()
for k in $(seq 1 "$shards"); do
  .venv/bin/python -m pytest -p no:xdist -p no:cacheprovider --nnhal-profile=ci \
    -q conformance --shard="$k/$shards" >"$logs/shard-$k.log" 2>&1 &
  pids+=("$!")
done
# Progress while the shards run: each shard's last percentage, once a minute
# (NNHAL_TEST_PROGRESS_SECONDS sets another period).
(
  while sleep "${NNHAL_TEST_PROGRESS_SECONDS:-60}"; do
    line="test: stage 1 running:"
    for k in $(seq 1 "$shards"); do
      done_=$(grep -o '\[ *[0-9]*%\]' "$logs/shard-$k.log" 2>/dev/null | tail -n 1)
      line="$line shard $k/$shards ${done_:-collecting}"
    done
    echo "$line"
  done
) &
progress=$!
failed=0
for k in $(seq 1 "$shards"); do
  wait "${pids[$((k - 1))]}"
  status=$?
  echo "test: stage 1, shard $k/$shards (exit $status):"
  # The dots of passed tests are left out; every other line (failures, the summary) is kept.
  grep -v -E '^[.s]+ +\[ *[0-9]+%\]$' "$logs/shard-$k.log"
  checked "$status" "shard $k/$shards" || failed=1
done
pkill -P "$progress" 2>/dev/null
kill "$progress" 2>/dev/null
wait "$progress" 2>/dev/null
echo "test: stage 2: the project's tests"
.venv/bin/python -m pytest -n auto --dist worksteal -p no:cacheprovider --nnhal-profile=ci tests
checked $? "tests/" || failed=1
exit "$failed"
