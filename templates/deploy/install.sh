#!/usr/bin/env bash
# Dash node agent installer for {{PLATFORM}}, rendered by Dash for {{DASH_SCHEME}}://{{DASH_HOST}}.
#
#   install.sh <dash_host> [dash_port] <secret> [interval_seconds] [--net if1,if2] [--require-https]
#
# Downloads the agent build with the node secret, keeps it under
# $AGENT_HOME/releases/<version>/nodeagent, points $AGENT_HOME/current at it (atomically),
# registers the report target with `nodeagent report install` and runs `nodeagent push` as a
# system service. The agent is a Node.js program: Node.js >= 20 must be installed.
set -euo pipefail

PLATFORM='{{PLATFORM}}'
DASH_SCHEME='{{DASH_SCHEME}}'
AGENT_VERSION='{{AGENT_VERSION}}'
AGENT_HOME="${NODEAGENT_HOME:-/var/lib/nodeagent}"
UNIT_DIR="${NODEAGENT_UNIT_DIR:-/etc/systemd/system}"
PLIST_DIR="${NODEAGENT_PLIST_DIR:-/Library/LaunchDaemons}"
SERVICE_NAME=nodeagent
LAUNCHD_LABEL=dash.nodeagent

usage() {
  echo "usage: install.sh <dash_host> [dash_port] <secret> [interval_seconds] [--net if1,if2] [--require-https]" >&2
  exit 2
}
die() {
  echo "install.sh: $*" >&2
  exit 1
}
is_port() { [[ "$1" =~ ^[0-9]{1,5}$ ]] && [ "$1" -ge 1 ] && [ "$1" -le 65535 ]; }

args=()
net=''
require_https=0
while [ $# -gt 0 ]; do
  case "$1" in
    --net)
      [ $# -ge 2 ] || usage
      net="$2"
      shift 2
      ;;
    --net=*)
      net="${1#--net=}"
      shift
      ;;
    --require-https)
      require_https=1
      shift
      ;;
    -h | --help) usage ;;
    *)
      args+=("$1")
      shift
      ;;
  esac
done

# Secrets are at least 8 characters, so a second argument of at most five digits is a port.
host=''
port=''
secret=''
interval=''
case ${#args[@]} in
  2) host="${args[0]}" secret="${args[1]}" ;;
  3)
    if is_port "${args[1]}"; then
      host="${args[0]}" port="${args[1]}" secret="${args[2]}"
    else
      host="${args[0]}" secret="${args[1]}" interval="${args[2]}"
    fi
    ;;
  4) host="${args[0]}" port="${args[1]}" secret="${args[2]}" interval="${args[3]}" ;;
  *) usage ;;
esac

[[ "$host" =~ ^[A-Za-z0-9.:_-]+$ ]] || die "invalid host: $host"
if [ -z "$port" ]; then
  if [ "$DASH_SCHEME" = https ]; then port=443; else port=80; fi
fi
is_port "$port" || die "invalid port: $port"
[ -n "$secret" ] || die "the node secret is required"
[ -z "$interval" ] || [[ "$interval" =~ ^[1-9][0-9]{0,5}$ ]] || die "invalid interval: $interval"
[ -z "$net" ] || [[ "$net" =~ ^[A-Za-z0-9_.:@,-]+$ ]] || die "invalid --net list: $net"
if [ "$require_https" = 1 ] && [ "$DASH_SCHEME" != https ]; then
  die "--require-https: Dash is served over $DASH_SCHEME"
fi

if [ "$(id -u)" != 0 ] && [ "${NODEAGENT_ALLOW_NON_ROOT:-}" != 1 ]; then
  die "run as root (sudo)"
fi
command -v curl >/dev/null 2>&1 || die "curl is required"
NODE_BIN="$(command -v node 2>/dev/null)" || die "Node.js >= 20 is required (node not found)"
"$NODE_BIN" -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
  die "Node.js >= 20 is required (found $("$NODE_BIN" --version))"

case "$(uname -m)" in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) die "unsupported architecture: $(uname -m)" ;;
esac

url_host="$host"
case "$host" in *:*) url_host="[$host]" ;; esac
base="${DASH_SCHEME}://${url_host}:${port}"
asset_url="${base}/deploy/${PLATFORM}/node_${PLATFORM}_${arch}"
report_url="${base}/api/node/metrics"

mkdir -p "$AGENT_HOME/releases"
chmod 0755 "$AGENT_HOME"
tmp="$(mktemp "$AGENT_HOME/.download.XXXXXX")"
trap 'rm -f "$tmp"' EXIT

# The secret goes to curl on stdin, not on its command line, where other users could read it.
quoted="${secret//\\/\\\\}"
quoted="${quoted//\"/\\\"}"
printf 'header = "X-Node-Secret: %s"\n' "$quoted" |
  curl --config - -fsSL --retry 3 -o "$tmp" "$asset_url" ||
  die "download failed: $asset_url"
[ -s "$tmp" ] || die "downloaded agent is empty"

release_dir="$AGENT_HOME/releases/$AGENT_VERSION"
mkdir -p "$release_dir"
chmod 0755 "$tmp"
mv -f "$tmp" "$release_dir/nodeagent"
trap - EXIT

# rename(2) replaces the old link in one step, so `current` is never missing.
ln -sfn "releases/$AGENT_VERSION" "$AGENT_HOME/current.new"
"$NODE_BIN" -e 'require("fs").renameSync(process.argv[1], process.argv[2])' \
  "$AGENT_HOME/current.new" "$AGENT_HOME/current"

agent="$AGENT_HOME/current/nodeagent"
"$NODE_BIN" "$agent" report install "$report_url" "$secret" || die "nodeagent report install failed"

push_args=(push)
[ -z "$interval" ] || push_args+=("$interval")
[ -z "$net" ] || push_args+=(--net "$net")
[ "$require_https" = 0 ] || push_args+=(--require-https)

install_systemd() {
  mkdir -p "$UNIT_DIR"
  cat >"$UNIT_DIR/$SERVICE_NAME.service" <<UNIT
[Unit]
Description=Dash node agent
After=network-online.target
Wants=network-online.target

[Service]
ExecStart=$NODE_BIN $agent ${push_args[*]}
Restart=always
RestartSec=5

[Install]
WantedBy=multi-user.target
UNIT
  if command -v systemctl >/dev/null 2>&1; then
    systemctl daemon-reload
    systemctl enable "$SERVICE_NAME"
    systemctl restart "$SERVICE_NAME"
  else
    echo "systemctl not found: start '$NODE_BIN $agent ${push_args[*]}' with your service manager" >&2
  fi
}

install_launchd() {
  mkdir -p "$PLIST_DIR"
  plist="$PLIST_DIR/$LAUNCHD_LABEL.plist"
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n'
    printf '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
    printf '<plist version="1.0"><dict>\n'
    printf '  <key>Label</key><string>%s</string>\n' "$LAUNCHD_LABEL"
    printf '  <key>ProgramArguments</key><array>\n'
    printf '    <string>%s</string>\n' "$NODE_BIN" "$agent" "${push_args[@]}"
    printf '  </array>\n'
    printf '  <key>RunAtLoad</key><true/>\n'
    printf '  <key>KeepAlive</key><true/>\n'
    printf '</dict></plist>\n'
  } >"$plist"
  if command -v launchctl >/dev/null 2>&1; then
    launchctl bootout "system/$LAUNCHD_LABEL" >/dev/null 2>&1 || true
    launchctl bootstrap system "$plist"
  else
    echo "launchctl not found: load $plist yourself" >&2
  fi
}

if [ "$PLATFORM" = macos ]; then install_launchd; else install_systemd; fi
echo "nodeagent $AGENT_VERSION installed; reporting to $report_url"
