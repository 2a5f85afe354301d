#!/bin/sh
# Creates (or reuses) the Python venv with OpenSpiel that `cargo bench --bench versus`
# runs benches/versus/openspiel_rates.py in. Needs python3 with the venv module and,
# the first time, the network (pip install open-spiel, about 20 MB).
#
#   benches/versus/setup.sh [VENV_DIR]     (default: target/versus-venv)
#
# Prints the venv's python on its last line.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=${1:-"$root/target/versus-venv"}
python=${PYTHON:-python3}
if ! "$venv/bin/python" -c 'import pyspiel' >/dev/null 2>&1; then
    echo "versus: creating $venv with open-spiel (once)" >&2
    "$python" -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet --disable-pip-version-check open-spiel >&2
    "$venv/bin/python" -c 'import pyspiel' >&2
fi
echo "$venv/bin/python"
