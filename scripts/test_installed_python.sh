#!/usr/bin/env bash
# The Python suite against the installed package, as a user gets it:
# installs the `python` component of the build folder BUILD into a fresh
# prefix, checks that `import oocfft` finds that copy (not the source tree
# or the build tree), and runs python/tests with pytest from outside the
# repository. ctest runs it as Python.InstalledPackage.
#   scripts/test_installed_python.sh BUILD PYTHON [pytest arguments...]
set -euo pipefail
build=$1
python=$2
shift 2
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --component python --prefix "$prefix" >/dev/null
site=$(find "$prefix" -type d -name site-packages | head -n 1)
[ -n "$site" ] || { echo "no site-packages under the install prefix" >&2; exit 1; }
cd "$prefix"
export PYTHONPATH="$site" PYTHONNOUSERSITE=1
found=$("$python" -c 'import oocfft, os; print(os.path.dirname(oocfft.__file__))')
[ "$found" = "$site/oocfft" ] || { echo "import oocfft found $found, not the installed $site/oocfft" >&2; exit 1; }
# Not exec: the shell must outlive pytest for the trap to remove the prefix.
"$python" -m pytest -q -p no:cacheprovider "$source_dir/python/tests" "$@"
