#!/usr/bin/env bash
# A real Rekor v1 on loopback, for sealgate's transparency-log e2e test.
#
#   stack.sh build          install MariaDB (Debian) and build Trillian and
#                           rekor-server at pinned versions into a cache
#   stack.sh run CMD...     start the stack inside a private network
#                           namespace (loopback only) and run CMD there with
#                           REKOR_URL set; tear everything down after
#
# Binaries are cached under $SEALGATE_REKOR_CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/sealgate/rekor-stack/<versions>), so a second
# run on the same machine compiles nothing.
set -euo pipefail

TRILLIAN_VERSION=v1.7.3
REKOR_VERSION=v1.5.4
cache=${SEALGATE_REKOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sealgate/rekor-stack}/trillian-$TRILLIAN_VERSION-rekor-$REKOR_VERSION
bin=$cache/bin

log() { echo "rekor-stack: $*" >&2; }

mariadbd_path() {
	command -v mariadbd || command -v mysqld || { [ -x /usr/sbin/mariadbd ] && echo /usr/sbin/mariadbd; } || true
}

build() {
	if [ -z "$(mariadbd_path)" ]; then
		log "installing mariadb-server from Debian"
		local sudo=
		[ "$(id -u)" -ne 0 ] && sudo=sudo
		export DEBIAN_FRONTEND=noninteractive
		$sudo apt-get update -qq
		$sudo apt-get install -y -qq --no-install-recommends mariadb-server mariadb-client >/dev/null
	fi
	if [ -x "$bin/trillian_log_server" ] && [ -x "$bin/trillian_log_signer" ] && [ -x "$bin/rekor-server" ] && [ -f "$cache/storage.sql" ]; then
		log "binaries cached in $bin"
		return
	fi
	mkdir -p "$bin"
	local t0=$SECONDS
	# Only the MySQL storage and etcd election providers are compiled in
	# (cmd/internal/provider build tags): much faster than all of them.
	log "building Trillian $TRILLIAN_VERSION (log server, signer)"
	GOBIN=$bin GOTOOLCHAIN=local GOFLAGS=-trimpath go install -tags=mysql,etcd \
		github.com/google/trillian/cmd/trillian_log_server@$TRILLIAN_VERSION \
		github.com/google/trillian/cmd/trillian_log_signer@$TRILLIAN_VERSION
	log "building rekor-server $REKOR_VERSION"
	GOBIN=$bin GOTOOLCHAIN=local GOFLAGS=-trimpath go install github.com/sigstore/rekor/cmd/rekor-server@$REKOR_VERSION
	cp "$(go env GOMODCACHE)/github.com/google/trillian@$TRILLIAN_VERSION/storage/mysql/schema/storage.sql" "$cache/storage.sql"
	chmod 0644 "$cache/storage.sql"
	log "built in $((SECONDS - t0)) s"
}

wait_for() { # wait_for WHAT SECONDS CMD...
	local what=$1 limit=$2
	shift 2
	for ((i = 0; i < limit * 10; i++)); do
		if "$@" >/dev/null 2>&1; then return 0; fi
		sleep 0.1
	done
	log "$what did not come up in ${limit}s; its log:"
	tail -n 40 "$work/$what.log" >&2 || true
	return 1
}

# inside runs in the private network namespace.
inside() {
	ip link set lo up
	work=$(mktemp -d /tmp/rekor-stack.XXXXXX)
	pids=()
	cleanup() {
		for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
		wait 2>/dev/null || true
		rm -rf "$work"
	}
	trap cleanup EXIT
	local db=$work/db sock=$work/mysql.sock
	mkdir -p "$db"
	log "starting MariaDB"
	local installdb
	installdb=$(command -v mariadb-install-db || command -v mysql_install_db)
	"$installdb" --no-defaults --datadir="$db" --user="$(id -un)" --auth-root-authentication-method=normal >"$work/install-db.log" 2>&1
	"$(mariadbd_path)" --no-defaults --datadir="$db" --socket="$sock" --port=3306 --bind-address=127.0.0.1 \
		--user="$(id -un)" --skip-grant-tables --skip-log-bin --pid-file="$work/mysql.pid" >"$work/mariadb.log" 2>&1 &
	pids+=($!)
	local client
	client=$(command -v mariadb || command -v mysql)
	wait_for mariadb 60 "$client" --no-defaults -S "$sock" -e 'SELECT 1'
	"$client" --no-defaults -S "$sock" -e 'CREATE DATABASE trillian'
	"$client" --no-defaults -S "$sock" trillian <"$cache/storage.sql"
	local uri='root@tcp(127.0.0.1:3306)/trillian'

	log "starting Trillian"
	"$bin/trillian_log_server" --storage_system=mysql --quota_system=mysql --mysql_uri="$uri" \
		--rpc_endpoint=127.0.0.1:8090 --http_endpoint=127.0.0.1:8091 --alsologtostderr >"$work/trillian-server.log" 2>&1 &
	pids+=($!)
	"$bin/trillian_log_signer" --storage_system=mysql --quota_system=mysql --mysql_uri="$uri" \
		--rpc_endpoint=127.0.0.1:8190 --http_endpoint=127.0.0.1:8191 --force_master \
		--sequencer_interval=50ms --batch_size=100 --alsologtostderr >"$work/trillian-signer.log" 2>&1 &
	pids+=($!)
	wait_for trillian-server 60 bash -c 'exec 3<>/dev/tcp/127.0.0.1/8090'

	log "starting rekor-server"
	"$bin/rekor-server" serve --trillian_log_server.address=127.0.0.1 --trillian_log_server.port=8090 \
		--rekor_server.address=127.0.0.1 --port=3000 --rekor_server.signer=memory --log_type=prod \
		--enable_retrieve_api=false \
		--enabled_api_endpoints=getLogInfo,getPublicKey,getLogProof,createLogEntry,getLogEntryByIndex,getLogEntryByUUID >"$work/rekor.log" 2>&1 &
	pids+=($!)
	wait_for rekor 90 bash -c 'exec 3<>/dev/tcp/127.0.0.1/3000 && printf "GET /api/v1/log HTTP/1.0\r\n\r\n" >&3 && head -1 <&3 | grep -q " 200 "'
	export REKOR_URL=http://127.0.0.1:3000
	log "Rekor $REKOR_VERSION is up at $REKOR_URL"
	local rc=0
	"$@" || rc=$?
	if [ "$rc" -ne 0 ]; then
		log "the command failed ($rc); rekor-server's last lines:"
		tail -n 20 "$work/rekor.log" >&2 || true
	fi
	return "$rc"
}

case "${1:-}" in
build)
	build
	;;
run)
	shift
	[ $# -gt 0 ] || { log "usage: stack.sh run CMD..."; exit 3; }
	build
	# A private network namespace: only loopback, so nothing listens on the
	# host (rekor-server binds :2112 for metrics whatever it is told). Not
	# root: a user namespace grants the right to make one.
	if [ "$(id -u)" -eq 0 ]; then
		exec unshare -n -- "$0" __inside "$@"
	fi
	exec unshare -rn -- "$0" __inside "$@"
	;;
__inside)
	shift
	inside "$@"
	;;
*)
	echo "usage: stack.sh build | stack.sh run CMD..." >&2
	exit 3
	;;
esac
