#!/usr/bin/env bash
# Runs each libFuzzer target of reqtop-fuzz for FUZZ_SECONDS over its seed corpus
# (Tests/Fuzz/corpus/<target>/, checked in) plus what it finds (.build/fuzz/found/<target>/).
# Fails on any crash, leak (AddressSanitizer) or timeout; the input that did it is kept in
# .build/fuzz/artifacts/ — add it to the seed corpus once fixed, as a regression input.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
binary=.build/fuzz/debug/reqtop-fuzz
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(http har curl hurl bruno postman insomnia insomnia-yaml json jsonpath proxy-head proxy-chunked server-head)
mkdir -p .build/fuzz/artifacts
failed=()
for target in "${targets[@]}"; do
  seed=Tests/Fuzz/corpus/$target
  found=.build/fuzz/found/$target
  mkdir -p "$found"
  [ -d "$seed" ] || { echo "fuzz: no seed corpus $seed" >&2; failed+=("$target"); continue; }
  log=.build/fuzz/$target.log
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 "$binary" "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -max_len=65536 -artifact_prefix=.build/fuzz/artifacts/"$target"- -print_final_stats=1 "$found" "$seed" >"$log" 2>&1
  status=$?
  runs=$(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  if [ $status -eq 0 ]; then
    echo "fuzz: $target: ${runs:-?} runs in ${seconds} s, no crash"
  else
    echo "fuzz: $target FAILED (exit $status) — $log:" >&2
    grep -E 'ERROR|SUMMARY|Test unit written|timeout' "$log" | head -8 >&2
    failed+=("$target")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]}" >&2
  exit 1
fi
