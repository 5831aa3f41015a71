# Helpers for driving a real, provisioned n8n from bash (source this file). See README.md beside it.
#   source scripts/n8n/lib.sh
#   n8n_provision 2.40.7                 # sets N8N_BIN (installs on first use)
#   n8n_env "$(mktemp -d)"               # exports N8N_USER_FOLDER and a quiet, offline, collision-free setup
#   n8n_install_tarball my-pkg-1.0.0.tgz # unpacks a packed community package into the user folder
#   n8n_cli import:credentials --input=creds.json
#   n8n_cli import:workflow --input=wf.json
#   n8n_execute_json <workflow id> > run.json   # the run as JSON; exit status 1 when the run failed
# Every function writes its chatter to stderr.

N8N_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
N8N_WITH_NODE24="$N8N_LIB_DIR/../with-node24.sh"

# n8n_provision [VERSION]: installs (once) and sets N8N_BIN to the n8n binary.
n8n_provision() {
  local out
  out="$("$N8N_LIB_DIR/provision.sh" "$@")" || return
  N8N_BIN="$(printf '%s\n' "$out" | tail -n 1)"
  export N8N_BIN
}

# n8n_free_port: prints a free loopback TCP port.
n8n_free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# n8n_env USER_FOLDER: exports the environment for an isolated instance whose data lives in USER_FOLDER
# (n8n keeps it in USER_FOLDER/.n8n). Own ports (HTTP and task broker) so instances can run side by side.
n8n_env() {
  local folder="$1"
  mkdir -p "$folder/.n8n/nodes/node_modules"
  export N8N_USER_FOLDER="$folder"
  export N8N_ENCRYPTION_KEY="${N8N_ENCRYPTION_KEY:-n8n-nodes-messaging-e2e-key}"
  export N8N_DIAGNOSTICS_ENABLED=false N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_TEMPLATES_ENABLED=false
  export N8N_PERSONALIZATION_ENABLED=false N8N_DYNAMIC_BANNERS_ENABLED=false
  export N8N_LISTEN_ADDRESS=127.0.0.1 N8N_HOST=127.0.0.1 N8N_SECURE_COOKIE=false
  export N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=false
  N8N_PORT="${N8N_PORT:-$(n8n_free_port)}"
  N8N_RUNNERS_BROKER_PORT="${N8N_RUNNERS_BROKER_PORT:-$(n8n_free_port)}"
  export N8N_PORT N8N_RUNNERS_BROKER_PORT
}

# n8n_install_tarball TGZ: unpacks an `npm pack` tarball as USER_FOLDER/.n8n/nodes/node_modules/<name>, which
# n8n loads at start (names n8n-nodes-* or @scope/n8n-nodes-*). Node types are then <package name>.<node name>.
# The package's runtime dependencies must be empty (they would need an `npm install` inside that folder);
# `n8n-workflow` is resolved from n8n's own copy.
n8n_install_tarball() {
  local tgz="$1" name dir
  name="$(tar -xzOf "$tgz" package/package.json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).name))')"
  dir="$N8N_USER_FOLDER/.n8n/nodes/node_modules/$name"
  rm -rf "$dir" && mkdir -p "$dir"
  tar -xzf "$tgz" -C "$dir" --strip-components=1
  echo "n8n: installed $name into $dir" >&2
}

# n8n_cli ARGS...: runs the provisioned n8n under Node 24.
n8n_cli() {
  "$N8N_WITH_NODE24" "$N8N_BIN" "$@"
}

# n8n_execute_json ID: runs `n8n execute --id=ID --rawOutput` and prints only the run's JSON (n8n prints log
# lines before it on stdout, and on failure a report after it). Exit status: n8n's (0 success, 1 failed run).
n8n_execute_json() {
  local raw rc=0
  raw="$(n8n_cli execute --id="$1" --rawOutput 2>&1)" || rc=$?
  printf '%s\n' "$raw" | awk 'BEGIN{on=0} on==0 && $0=="{" {on=1} on==1 {print} on==1 && $0=="}" {exit}'
  if [ "$rc" -ne 0 ]; then
    printf '%s\n' "$raw" | awk 'f {print} $0=="}" {f=1}' | tail -n 20 >&2
  fi
  return "$rc"
}

# n8n_bcrypt PASSWORD: prints a bcrypt hash (for N8N_INSTANCE_OWNER_PASSWORD_HASH), using n8n's bcryptjs.
n8n_bcrypt() {
  (cd "$(dirname "$N8N_BIN")/../.." && "$N8N_WITH_NODE24" node -e \
    'console.log(require("bcryptjs").hashSync(process.argv[1], 10))' "$1")
}
