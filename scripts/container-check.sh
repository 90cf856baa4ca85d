#!/usr/bin/env bash
# scripts/container-check.sh: builds the real Dockerfile and checks the image twice, as operators run
# it: alone on its embedded database, then docker-compose.yml's stack (PostgreSQL, Redis, an
# S3-compatible store, nginx, two API replicas). Each answers readiness, serves the web app, and a
# message from the simulator becomes a conversation (scripts/container-smoke.mjs).
# Uses podman (and podman-compose), or docker where there is one. Where no registry is reachable,
# the third-party images are local stand-ins (ops/compose.ci.yaml, ops/ci-images/) and the Node base
# image must exist locally (README "Run with Docker Compose").
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v podman >/dev/null 2>&1; then
  engine=podman
  compose=(podman-compose)
  build_flags=(--pull=never --format docker)
  export BUILDAH_FORMAT=docker
elif command -v docker >/dev/null 2>&1; then
  engine=docker
  compose=(docker compose)
  build_flags=()
else
  echo 'container check: neither podman nor docker is installed' >&2
  exit 1
fi
t0=$SECONDS
log() { printf '[container-check +%ss] %s\n' "$((SECONDS - t0))" "$*"; }
port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
password="Check$(date +%s)Aa"

log "building the image (Dockerfile) with $engine"
"$engine" build "${build_flags[@]}" -t atendi:local . >/tmp/atendi-container-build.log 2>&1 ||
  { tail -n 30 /tmp/atendi-container-build.log >&2; exit 1; }
log "image: $("$engine" image inspect atendi:local --format '{{.Config.User}} user, ports {{.Config.ExposedPorts}}, healthcheck {{.Config.Healthcheck.Test}}')"

# --- 1. alone, on the embedded database
name="atendi-check-$$"
api_port=$(port)
web_port=$(port)
cleanup_single() { "$engine" rm -f -v "$name" >/dev/null 2>&1 || true; }
trap cleanup_single EXIT
log "embedded database: starting $name"
"$engine" run -d --name "$name" -p "127.0.0.1:$api_port:8080" -p "127.0.0.1:$web_port:3000" \
  -e ADMIN_PASSWORD="$password" -e SIMULATOR_ENABLED=true \
  -e PUBLIC_API_URL="http://127.0.0.1:$api_port" -e PUBLIC_WEB_URL="http://127.0.0.1:$web_port" \
  atendi:local >/dev/null
node scripts/container-smoke.mjs "http://127.0.0.1:$api_port" "http://127.0.0.1:$web_port" \
  admin@atendi.local "$password" || { "$engine" logs --tail 40 "$name" >&2; exit 1; }
"$engine" healthcheck run "$name" >/dev/null 2>&1 || [ "$engine" = docker ] ||
  { echo 'the image HEALTHCHECK failed' >&2; exit 1; }
log 'embedded database: healthy'
cleanup_single

# --- 2. docker-compose.yml: PostgreSQL + Redis + S3 + nginx + two API replicas
project="atendi-check-$$"
files=(-f docker-compose.yml)
if [ "$engine" = podman ]; then
  for image in postgres:15 redis:7 nginx:1.22 s3:latest; do
    dir=${image%%:*}
    if ! podman image exists "localhost/atendi-ci-$image"; then
      log "building the stand-in atendi-ci-$image (ops/ci-images/$dir)"
      podman build "${build_flags[@]}" -t "localhost/atendi-ci-$image" "ops/ci-images/$dir" >/dev/null
    fi
  done
  files+=(-f ops/compose.ci.yaml)
  log 'stand-ins: PostgreSQL 15 (compose: 17), Redis 7.0, nginx 1.22 (compose: 1.27), s3rver (compose: MinIO)'
fi
export POSTGRES_PASSWORD="pg-$password" MINIO_ROOT_USER=atendi MINIO_ROOT_PASSWORD="minio-$password"
export API_PORT=$(port) WEB_PORT=$(port)
# The .env an operator would write (never the repository's own .env).
export ATENDI_ENV_FILE=$(mktemp)
cat >"$ATENDI_ENV_FILE" <<ENV
ADMIN_PASSWORD=$password
SIMULATOR_ENABLED=true
PUBLIC_API_URL=http://127.0.0.1:$API_PORT
PUBLIC_WEB_URL=http://127.0.0.1:$WEB_PORT
ENV
cleanup_compose() {
  "${compose[@]}" -p "$project" "${files[@]}" down -v >/dev/null 2>&1 || true
  rm -f "$ATENDI_ENV_FILE"
  if [ "$engine" = podman ]; then
    podman network rm -f "${project}_default" >/dev/null 2>&1 || true
    podman volume ls -q --filter "label=io.podman.compose.project=$project" | xargs -r podman volume rm -f >/dev/null 2>&1 || true
  fi
}
trap cleanup_compose EXIT
log "compose: starting $project"
"${compose[@]}" -p "$project" "${files[@]}" up -d --scale api=2 >/tmp/atendi-compose-up.log 2>&1 ||
  { tail -n 30 /tmp/atendi-compose-up.log >&2; exit 1; }
node scripts/container-smoke.mjs "http://127.0.0.1:$API_PORT" "http://127.0.0.1:$WEB_PORT" \
  admin@atendi.local "$password" ||
  { "${compose[@]}" -p "$project" "${files[@]}" logs --tail 40 >&2 2>&1 || true; exit 1; }
replicas=$("$engine" ps --filter "name=${project}[-_]api" --format '{{.Names}}')
[ "$(echo "$replicas" | wc -w)" -ge 2 ] || { echo "expected two API replicas, found: $replicas" >&2; exit 1; }
# Each replica ready on its own, not only the one nginx happened to ask.
for replica in $replicas; do
  "$engine" exec "$replica" node -e \
    'fetch("http://127.0.0.1:8080/health/ready").then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' ||
    { echo "$replica is not ready" >&2; "$engine" logs --tail 40 "$replica" >&2; exit 1; }
done
log "compose: $(echo "$replicas" | wc -w) API replicas ready behind nginx, on PostgreSQL, Redis and the bucket"
log 'container check passed'
