#!/usr/bin/env bash
# Builds the production image (Containerfile) and proves it serves: against a fresh database on
# a PostgreSQL reachable from the host, it must answer /readyz and /login, report healthy, refuse
# the development secrets, run without root and without dev packages, and stop cleanly on
# SIGTERM. A procedure for a machine with a container engine, not part of `npm test`.
#
#   scripts/image-check.sh            (npm run image:check)
#
# Settings (environment):
#   ENGINE          podman (default) or docker
#   BASE_IMAGE      a Debian 12 image to build on; unset: localhost/debian-base:bookworm, made
#                   from Debian's packages with debootstrap when it does not exist yet (needs
#                   root and debootstrap; REBUILD_BASE=1 makes it again)
#   IMAGE           tag of the image built (default localhost/sprechstunde:check)
#   ADMIN_DATABASE_URL  PostgreSQL the check creates its database on
#                   (default postgres://postgres@127.0.0.1:5432/postgres); the container uses
#                   the host's network to reach it
#   CHECK_PORT      port the container listens on (default 3290)
#   BUILD_CA_FILE   CA bundle the build trusts for the npm registry (default: the host's,
#                   /etc/ssl/certs/ca-certificates.crt, so a TLS-inspecting proxy the host
#                   trusts works); given as a build secret, kept in no layer
#   RUN_FLAGS       extra flags for every container the engine starts; unset: none, or — when a
#                   plain container cannot start here — runc with limits the host allows
set -euo pipefail
cd "$(dirname "$0")/.."

ENGINE=${ENGINE:-podman}
IMAGE=${IMAGE:-localhost/sprechstunde:check}
ADMIN_DATABASE_URL=${ADMIN_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
CHECK_PORT=${CHECK_PORT:-3290}
DB_NAME=sprechstunde_image_check_$$
DATABASE_URL=${ADMIN_DATABASE_URL%/*}/$DB_NAME
CONTAINER=sprechstunde-image-check-$$
step() { printf '\n== %s\n' "$*"; }
fail() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }

cleanup() {
  "$ENGINE" rm -f "$CONTAINER" "$CONTAINER-refused" >/dev/null 2>&1 || true
  psql "$ADMIN_DATABASE_URL" -qc "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# --- base image
if [[ -z "${BASE_IMAGE:-}" ]]; then
  BASE_IMAGE=localhost/debian-base:bookworm
  if [[ -n "${REBUILD_BASE:-}" ]] || ! "$ENGINE" image exists "$BASE_IMAGE" 2>/dev/null; then
    step "base image $BASE_IMAGE from Debian's packages (debootstrap)"
    started=$SECONDS
    rootfs=$(mktemp -d)
    debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >/dev/null
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    # As Debian's own images: updates and security fixes (the Containerfile upgrades from them).
    cat > "$rootfs/etc/apt/sources.list" <<'SOURCES'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
SOURCES
    tar -C "$rootfs" -c . | "$ENGINE" import - "$BASE_IMAGE" >/dev/null
    rm -rf "$rootfs"
    echo "base image built in $((SECONDS - started)) s"
  fi
fi

# Some hosts (cgroup v1 with a v2 controller, no CAP_SYS_RESOURCE) refuse the engine's defaults:
# crun rejects the hybrid cgroup layout, and the default open-files/process limits exceed what
# the host may grant.
if [[ -z "${RUN_FLAGS+x}" ]]; then
  RUN_FLAGS=""
  if ! "$ENGINE" run --rm "$BASE_IMAGE" true >/dev/null 2>&1; then
    RUN_FLAGS="--ulimit nofile=$(ulimit -Hn):$(ulimit -Hn) --ulimit nproc=4096:4096"
    [[ "$ENGINE" == podman ]] && RUN_FLAGS="--runtime runc $RUN_FLAGS"
    "$ENGINE" run --rm $RUN_FLAGS "$BASE_IMAGE" true || fail "no container starts here, not even with: $RUN_FLAGS"
    echo "containers start here with: $RUN_FLAGS"
  fi
fi
# podman keeps HEALTHCHECK only in the docker image format.
BUILD_FLAGS=""
[[ "$ENGINE" == podman ]] && BUILD_FLAGS="--format docker"
BUILD_CA_FILE=${BUILD_CA_FILE:-/etc/ssl/certs/ca-certificates.crt}
[[ -f "$BUILD_CA_FILE" ]] && BUILD_FLAGS="$BUILD_FLAGS --secret id=ca,src=$BUILD_CA_FILE"

# --- image
step "image $IMAGE on $BASE_IMAGE"
started=$SECONDS
# shellcheck disable=SC2086 # RUN_FLAGS and BUILD_FLAGS are lists of flags
"$ENGINE" build $BUILD_FLAGS $RUN_FLAGS --build-arg BASE_IMAGE="$BASE_IMAGE" -f Containerfile -t "$IMAGE" .
build_seconds=$((SECONDS - started))
size_bytes=$("$ENGINE" image inspect --format '{{.Size}}' "$IMAGE")
echo "image built in ${build_seconds} s, size $((size_bytes / 1000000)) MB"

step "the image: user, health check, no dev packages"
# shellcheck disable=SC2086
run() { "$ENGINE" run --rm $RUN_FLAGS --no-healthcheck "$@"; }
uid=$(run "$IMAGE" id -u)
[[ "$uid" != 0 ]] || fail "the image runs as root"
echo "runs as uid $uid"
"$ENGINE" image inspect --format '{{json .Config.Healthcheck}}' "$IMAGE" | grep -q readyz \
  || fail "no health check on /readyz"
echo "health check: /readyz"
run "$IMAGE" node --version
present=$(run "$IMAGE" sh -c 'for p in vitest vite typescript eslint node; do
  [ -e "node_modules/$p" ] && echo "$p"; done; command -v npm; echo checked')
[[ "$present" == checked ]] || fail "dev packages or npm in the image: $present"
echo "no dev packages (vitest, vite, typescript, eslint, the node package), no npm"

# --- against PostgreSQL
step "refuses the development secrets in production"
psql "$ADMIN_DATABASE_URL" -qc "CREATE DATABASE $DB_NAME"
set +e
# shellcheck disable=SC2086
refused=$("$ENGINE" run --name "$CONTAINER-refused" $RUN_FLAGS --no-healthcheck --network host \
  -e DATABASE_URL="$DATABASE_URL" -e PORT="$CHECK_PORT" \
  -e WEBHOOK_SECRET_KEY=sprechstunde-development-only-webhook-secret-key "$IMAGE" 2>&1)
status=$?
set -e
[[ $status -ne 0 && "$refused" == *WEBHOOK_SECRET_KEY* ]] || fail "started with a development secret: $refused"
echo "exit $status: $refused"

step "serves: /readyz, /login, healthy"
started=$SECONDS
# shellcheck disable=SC2086
# Without systemd podman cannot schedule the health check itself (it logs so); it runs it below.
"$ENGINE" run -d --name "$CONTAINER" $RUN_FLAGS --network host \
  -e DATABASE_URL="$DATABASE_URL" -e PORT="$CHECK_PORT" \
  -e PUBLIC_URL="http://localhost:$CHECK_PORT" \
  -e WEBHOOK_SECRET_KEY="$(head -c 32 /dev/urandom | base64)" \
  "$IMAGE" >/dev/null
until curl -fsS "http://127.0.0.1:$CHECK_PORT/readyz" >/dev/null 2>&1; do
  if (( SECONDS - started > 120 )); then "$ENGINE" logs "$CONTAINER" | tail -20; fail "/readyz not 200 within 120 s"; fi
  if [[ "$("$ENGINE" inspect --format '{{.State.Running}}' "$CONTAINER")" != true ]]; then
    "$ENGINE" logs "$CONTAINER" | tail -20; fail "the container stopped"
  fi
  sleep 1
done
echo "/readyz 200 after $((SECONDS - started)) s (fresh database, migrations applied): $(curl -fsS "http://127.0.0.1:$CHECK_PORT/readyz")"
login=$(curl -fsS "http://127.0.0.1:$CHECK_PORT/login")
[[ "$login" == *'<html'* ]] || fail "/login is not the web app"
echo "/login 200, $(printf %s "$login" | wc -c) bytes of HTML"
if [[ "$ENGINE" == podman ]]; then
  "$ENGINE" healthcheck run "$CONTAINER" || fail "the health check reports unhealthy"
  echo "health check: healthy"
fi

step "SIGTERM stops it cleanly"
started=$SECONDS
"$ENGINE" stop -t 30 "$CONTAINER" >/dev/null
code=$("$ENGINE" inspect --format '{{.State.ExitCode}}' "$CONTAINER")
"$ENGINE" logs "$CONTAINER" 2>&1 | grep -q '"msg":"shut down' || fail "no shut-down line in the log"
[[ "$code" == 0 ]] || fail "exit code $code after SIGTERM"
echo "exit 0 after $((SECONDS - started)) s, shut-down line logged"

printf '\nimage check passed: built in %s s, %s MB\n' "$build_seconds" "$((size_bytes / 1000000))"
