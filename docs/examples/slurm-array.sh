#!/usr/bin/env bash
#SBATCH --job-name=rpsdsl-study
#SBATCH --cpus-per-task=1
#SBATCH --time=01:00:00
#
# One rpsdsl study as a Slurm job array: array task i plays shard i of N
# (`rpsdsl simulate --shard i/N --json`), and a merge job that depends on the
# whole array combines the shards with `rpsdsl merge`. See docs/scale.md.
#
# From the folder that holds the games (on a filesystem every node sees, with
# the same rpsdsl build on PATH on every node):
#
#   bash docs/examples/slurm-array.sh submit
#
# which submits the two jobs:
#
#   jobid=$(sbatch --parsable --array=1-$SHARDS docs/examples/slurm-array.sh)
#   sbatch --dependency=afterok:$jobid docs/examples/slurm-array.sh merge
#
# (#SBATCH lines count only above the first command, so they are at the top.)

# The study, set by these environment variables (sbatch passes them on to
# the jobs; `submit` sets SHARDS for both):
GAME=${GAME:-games/rubber_paper_scissors.rules}
GAMES=${GAMES:-40000}     # -n, the games of the whole study
SEED=${SEED:-7}
AGENTS=${AGENTS:-random}
# N, the number of shards: by default the array's size
SHARDS=${SHARDS:-${SLURM_ARRAY_TASK_COUNT:-8}}
OUT=${OUT:-rpsdsl-shards} # where the shard reports and the merge go

set -euo pipefail

case "${1:-}" in
submit)
    # Shards left by an earlier study would stand in for any that this one
    # fails to write: start from an empty folder.
    if compgen -G "$OUT/shard-*.json" >/dev/null; then
        echo "error: $OUT already holds shard reports; remove them or set OUT" >&2
        exit 1
    fi
    export GAME GAMES SEED AGENTS SHARDS OUT
    jobid=$(sbatch --parsable --array="1-$SHARDS" "$0")
    jobid=${jobid%%;*} # --parsable prints `id` or `id;cluster`
    sbatch --dependency="afterok:$jobid" "$0" merge
    echo "shards: job array $jobid; reports in $OUT/"
    ;;
merge)
    # afterok: every task of the array ended with status 0. Still, name
    # the shards one by one, so a missing file is an error here rather
    # than a warning from `rpsdsl merge` about games it does not cover.
    shards=()
    for ((i = 1; i <= SHARDS; i++)); do
        shards+=("$OUT/shard-$i.json")
    done
    rpsdsl merge "${shards[@]}" --json >"$OUT/merged.json"
    rpsdsl merge "$OUT/merged.json" | tee "$OUT/merged.txt"
    ;;
"")
    : "${SLURM_ARRAY_TASK_ID:?not an array task: run \`bash $0 submit\`}"
    i=$SLURM_ARRAY_TASK_ID
    n=$SHARDS
    # Shards are 1 to N. An array reaching outside them (--array=0-7, or
    # --array=1-16 with SHARDS=8) would play some games twice and leave
    # others out: every task refuses it. A part of 1-N (--array=3,5) runs
    # those shards again.
    if ((SLURM_ARRAY_TASK_MIN < 1 || SLURM_ARRAY_TASK_MAX > n)); then
        echo "error: array tasks $SLURM_ARRAY_TASK_MIN to $SLURM_ARRAY_TASK_MAX, but shards are 1 to" \
            "SHARDS=$n: submit with --array=1-N, and set SHARDS=N for an array that is part of 1-N" >&2
        exit 1
    fi
    mkdir -p "$OUT"
    # Written under another name and renamed when complete, so a task
    # killed halfway leaves no shard that looks finished.
    rpsdsl simulate "$GAME" -n "$GAMES" --seed "$SEED" --agents "$AGENTS" \
        --jobs "${SLURM_CPUS_PER_TASK:-1}" --shard "$i/$n" --json >"$OUT/shard-$i.json.part"
    mv "$OUT/shard-$i.json.part" "$OUT/shard-$i.json"
    ;;
*)
    echo "usage: bash $0 submit   (or, as a job: no argument in the array, \`merge\` after it)" >&2
    exit 2
    ;;
esac
