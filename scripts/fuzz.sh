#!/usr/bin/env bash
# Runs each libFuzzer target of reqtop-fuzz for FUZZ_SECONDS over its seed corpus
# (Tests/Fuzz/corpus/<target>/, checked in) plus what it finds (.build/fuzz/found/<target>/),
# FUZZ_JOBS targets at a time (default: one per CPU). Fails on any crash, leak (AddressSanitizer)
# or timeout; the input that did it is kept in .build/fuzz/artifacts/ — add it to the seed corpus
# once fixed, as a regression input. The Swift backtracer is off: libFuzzer reports the trap itself
# (the backtracer reading the crashed stack trips AddressSanitizer and hides the cause).
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
binary=.build/fuzz/debug/reqtop-fuzz
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(http har curl hurl bruno postman insomnia insomnia-yaml json jsonpath proxy-head proxy-chunked server-head stream-messages websocket-frames http2-server)
mkdir -p .build/fuzz/artifacts

# One target: its result line goes to .build/fuzz/<target>.result ("ok …" or "FAILED …").
run_target() {
  local target=$1 seed=Tests/Fuzz/corpus/$1 found=.build/fuzz/found/$1 log=.build/fuzz/$1.log result=.build/fuzz/$1.result
  mkdir -p "$found"
  if [ ! -d "$seed" ]; then echo "FAILED no seed corpus $seed" >"$result"; return; fi
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 "$binary" "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -max_len=65536 -artifact_prefix=.build/fuzz/artifacts/"$target"- -print_final_stats=1 "$found" "$seed" >"$log" 2>&1
  local status=$?
  local runs
  runs=$(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  if [ $status -eq 0 ]; then
    echo "ok ${runs:-?} runs in ${seconds} s, no crash" >"$result"
  else
    echo "FAILED exit $status, see $log: $(grep -E 'Fatal error|ERROR|SUMMARY|Test unit written|timeout' "$log" | head -3 | tr '\n' ' ')" >"$result"
  fi
}

running=0
for target in "${targets[@]}"; do
  rm -f ".build/fuzz/$target.result"
  run_target "$target" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

failed=()
for target in "${targets[@]}"; do
  line=$(cat ".build/fuzz/$target.result" 2>/dev/null || echo "FAILED no result")
  case $line in
    ok*) echo "fuzz: $target: ${line#ok }" ;;
    *) echo "fuzz: $target ${line}" >&2; failed+=("$target") ;;
  esac
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]}" >&2
  exit 1
fi
