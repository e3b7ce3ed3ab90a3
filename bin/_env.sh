# Sourced by bin/run and bin/test: make .venv with every package of requirements.lock, once.
# Re-installs only when pyproject.toml or requirements.lock changed since the last install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON_BIN="${PYTHON:-$(command -v python3.11 || command -v python3)}"
if ! "$PYTHON_BIN" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "Spotter needs Python 3.11 or newer; $PYTHON_BIN is $("$PYTHON_BIN" --version)." >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv with $("$PYTHON_BIN" --version)"
  "$PYTHON_BIN" -m venv .venv
fi
stamp=".venv/.spotter-installed"
want="$(cat pyproject.toml requirements.lock | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "==> installing packages (pinned by requirements.lock)"
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -c requirements.lock ".[dev]"
  echo "$want" > "$stamp"
fi
export PATH="$ROOT/.venv/bin:$PATH"
