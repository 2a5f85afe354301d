#!/usr/bin/env bash
# Checks the tree-sitter grammar with the tree-sitter CLI: the generated
# parser in src/ matches grammar.js, the corpus tests pass, the queries
# compile, and every .rules file of games/ and tests/games/ parses without
# an error node. CI runs it (.ci/run); it is not part of `cargo test`,
# since the CLI is a separate install.
#
# The CLI comes from PATH, or is built from crates.io into
# target/tree-sitter-cli (about 3 minutes, once).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
version="0.27.1"

if ! command -v tree-sitter >/dev/null 2>&1 || [[ $(tree-sitter --version) != "tree-sitter $version"* ]]; then
    root="$repo/target/tree-sitter-cli"
    if [[ ! -x "$root/bin/tree-sitter" ]]; then
        cargo install tree-sitter-cli --locked --version "$version" --root "$root"
    fi
    export PATH="$root/bin:$PATH"
fi
tree-sitter --version

cd "$here"
# Tree-sitter writes its compiled parsers here; keep them out of $HOME.
export TREE_SITTER_DIR="$repo/target/tree-sitter"
mkdir -p "$TREE_SITTER_DIR"
# A configuration of its own, so the CLI does not warn that it has none.
[[ -f "$TREE_SITTER_DIR/config.json" ]] || tree-sitter init-config >/dev/null

echo "== the generated parser matches grammar.js"
before="$(cat src/parser.c src/grammar.json src/node-types.json | sha256sum)"
tree-sitter generate
after="$(cat src/parser.c src/grammar.json src/node-types.json | sha256sum)"
if [[ "$before" != "$after" ]]; then
    echo "error: src/ was out of date with grammar.js; commit the regenerated files" >&2
    exit 1
fi

echo "== corpus tests"
tree-sitter test

echo "== the queries compile"
for query in queries/*.scm; do
    tree-sitter query "$query" "$repo/games/rps.rules" >/dev/null
done

echo "== every game parses without an error node"
files="$(mktemp)"
trap 'rm -f "$files"' EXIT
find "$repo/games" "$repo/tests/games" -name '*.rules' | sort > "$files"
tree-sitter parse --quiet --stat --paths "$files"
