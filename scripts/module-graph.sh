#!/usr/bin/env bash
# Draws the modules of Sources/ and the imports between them as a Mermaid graph (to stdout):
#   scripts/module-graph.sh            the graph, read from each module's `import` lines
# docs/architecture.md holds its output; ArchitectureTests checks that no module imports one of a
# higher (or its own) layer.
set -euo pipefail
cd "$(dirname "$0")/.."
echo '```mermaid'
echo 'graph BT'
for dir in Sources/*/; do
  module=$(basename "$dir")
  node=${module//-/_}
  { grep -rhoE '^(@_exported |@testable |package |public )?import [A-Za-z_]+' "$dir" --include='*.swift' || true; } \
    | awk '{print $NF}' | sort -u | while read -r imported; do
      [ -d "Sources/$imported" ] || continue          # Foundation, Glibc, XCTest …
      [ "$imported" = "$module" ] && continue
      echo "  $node --> ${imported//-/_}"
    done
done
echo '```'
