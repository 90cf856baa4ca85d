#!/bin/sh
# Creates the cluster, user and database on the first start, as the official image does.
set -e
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
  pwfile=$(mktemp); printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.auto.conf"
  [ "$POSTGRES_DB" = postgres ] || echo "CREATE DATABASE \"$POSTGRES_DB\";" | postgres --single -D "$PGDATA" postgres >/dev/null
fi
exec postgres -D "$PGDATA"
