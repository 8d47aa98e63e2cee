#!/usr/bin/env bash
# Dash node agent installer for {{PLATFORM}}, rendered by Dash for {{DASH_SCHEME}}://{{DASH_HOST}}.
#
#   install.sh <dash_host> [dash_port] <secret> [interval_seconds] [--net if1,if2] [--require-https]
#
# Downloads the standalone agent (one executable, nothing else needed on the host) with the node
# secret, keeps it under $AGENT_HOME/releases/<version>/nodeagent, points $AGENT_HOME/current at
# it (atomically), registers the report target with `nodeagent report install` and runs
# `nodeagent push` as a system service: systemd or OpenRC on Linux, launchd on macOS.
set -euo pipefail

PLATFORM='{{PLATFORM}}'
DASH_SCHEME='{{DASH_SCHEME}}'
AGENT_VERSION='{{AGENT_VERSION}}'
AGENT_HOME="${NODEAGENT_HOME:-/var/lib/nodeagent}"
UNIT_DIR="${NODEAGENT_UNIT_DIR:-/etc/systemd/system}"
INITD_DIR="${NODEAGENT_INITD_DIR:-/etc/init.d}"
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
if command -v curl >/dev/null 2>&1; then
  downloader=curl
elif command -v wget >/dev/null 2>&1; then
  downloader=wget
else
  die "curl or wget is required"
fi

case "$(uname -m)" in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) die "unsupported architecture: $(uname -m)" ;;
esac
# Alpine and other musl systems cannot run a glibc build: they get the _musl one.
variant=''
if [ "$PLATFORM" = linux ]; then
  if ls /lib/ld-musl-* >/dev/null 2>&1 || (ldd --version 2>&1 | grep -qi musl); then
    variant=_musl
  fi
fi

url_host="$host"
case "$host" in *:*) url_host="[$host]" ;; esac
base="${DASH_SCHEME}://${url_host}:${port}"
asset_url="${base}/deploy/${PLATFORM}/node_${PLATFORM}_${arch}${variant}"
report_url="${base}/api/node/metrics"

mkdir -p "$AGENT_HOME/releases"
chmod 0755 "$AGENT_HOME"
tmp="$(mktemp "$AGENT_HOME/.download.XXXXXX")"
trap 'rm -f "$tmp"' EXIT

# The secret stays off command lines, where other users could read it: curl reads it from stdin,
# GNU wget from a private temporary config file. Only BusyBox wget (Alpine without curl) has no
# other way than --header. curl and GNU wget accept a gzip-compressed download.
download() {
  if [ "$downloader" = curl ]; then
    local quoted="${secret//\\/\\\\}"
    quoted="${quoted//\"/\\\"}"
    printf 'header = "X-Node-Secret: %s"\n' "$quoted" |
      curl --config - -fsSL --compressed --retry 3 -o "$tmp" "$asset_url"
  elif wget --version 2>/dev/null | grep -q 'GNU Wget'; then
    local rc status=0
    rc="$(mktemp)"
    chmod 0600 "$rc"
    printf 'header = X-Node-Secret: %s\n' "$secret" >"$rc"
    WGETRC="$rc" wget -q --compression=auto -O "$tmp" "$asset_url" 2>/dev/null ||
      WGETRC="$rc" wget -q -O "$tmp" "$asset_url" || status=$?
    rm -f "$rc"
    return "$status"
  else
    wget -q --header "X-Node-Secret: $secret" -O "$tmp" "$asset_url"
  fi
}
download || die "download failed: $asset_url"
[ -s "$tmp" ] || die "downloaded agent is empty"
chmod 0755 "$tmp"
if [ "$PLATFORM" = macos ] && command -v codesign >/dev/null 2>&1; then
  codesign --force --sign - "$tmp" >/dev/null 2>&1 || true
fi
# A build that cannot start here (wrong C library, too old a kernel) must not replace anything.
"$tmp" --version >/dev/null 2>&1 || die "the downloaded agent does not run on this host ($asset_url)"

release_dir="$AGENT_HOME/releases/$AGENT_VERSION"
mkdir -p "$release_dir"
mv -f "$tmp" "$release_dir/nodeagent"
trap - EXIT

# rename(2) replaces the old link in one step, so `current` is never missing (GNU mv -T,
# BSD mv -h; a plain re-link where neither exists).
ln -sfn "releases/$AGENT_VERSION" "$AGENT_HOME/current.new"
mv -Tf "$AGENT_HOME/current.new" "$AGENT_HOME/current" 2>/dev/null ||
  mv -hf "$AGENT_HOME/current.new" "$AGENT_HOME/current" 2>/dev/null || {
  rm -f "$AGENT_HOME/current.new"
  ln -sfn "releases/$AGENT_VERSION" "$AGENT_HOME/current"
}

agent="$AGENT_HOME/current/nodeagent"
config="$AGENT_HOME/report.yaml"
NODE_REPORT_CONFIG="$config" "$agent" report install "$report_url" "$secret" ||
  die "nodeagent report install failed"

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
Environment=NODE_REPORT_CONFIG=$config
ExecStart=$agent ${push_args[*]}
Restart=always
RestartSec=5

[Install]
WantedBy=multi-user.target
UNIT
  systemctl daemon-reload
  systemctl enable "$SERVICE_NAME"
  systemctl restart "$SERVICE_NAME"
}

# OpenRC (Alpine, Gentoo): supervise-daemon restarts the agent when it exits, also after an update.
install_openrc() {
  mkdir -p "$INITD_DIR"
  cat >"$INITD_DIR/$SERVICE_NAME" <<RC
#!/sbin/openrc-run
description="Dash node agent"
supervisor=supervise-daemon
command="$agent"
command_args="${push_args[*]}"
respawn_delay=5
respawn_max=0
export NODE_REPORT_CONFIG="$config"

depend() {
  need net
}
RC
  chmod 0755 "$INITD_DIR/$SERVICE_NAME"
  rc-update add "$SERVICE_NAME" default
  rc-service "$SERVICE_NAME" restart
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
    printf '    <string>%s</string>\n' "$agent" "${push_args[@]}"
    printf '  </array>\n'
    printf '  <key>EnvironmentVariables</key><dict><key>NODE_REPORT_CONFIG</key><string>%s</string></dict>\n' "$config"
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

# NODEAGENT_INIT=systemd|openrc|launchd overrides the detection (hosts with both, and tests).
init="${NODEAGENT_INIT:-}"
if [ -z "$init" ]; then
  if [ "$PLATFORM" = macos ]; then
    init=launchd
  elif command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    init=systemd
  elif command -v rc-update >/dev/null 2>&1; then
    init=openrc
  elif command -v systemctl >/dev/null 2>&1; then
    init=systemd
  fi
fi
case "$init" in
  launchd) install_launchd ;;
  systemd) install_systemd ;;
  openrc) install_openrc ;;
  *)
    echo "no systemd or OpenRC found: run '$agent ${push_args[*]}' (NODE_REPORT_CONFIG=$config) with your service manager" >&2
    ;;
esac
echo "nodeagent $AGENT_VERSION installed; reporting to $report_url"
