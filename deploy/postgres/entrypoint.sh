#!/bin/sh
# First start on an empty volume: a cluster whose superuser is $POSTGRES_USER with
# $POSTGRES_PASSWORD, and the database $POSTGRES_DB. Then the server, in the
# foreground, taking password (SCRAM) connections from the compose network.
set -eu
: "${POSTGRES_USER:?}" "${POSTGRES_PASSWORD:?}" "${POSTGRES_DB:?}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    password_file="$(mktemp)"
    printf '%s' "$POSTGRES_PASSWORD" > "$password_file"
    initdb --pgdata="$PGDATA" --username="$POSTGRES_USER" --pwfile="$password_file" \
        --encoding=UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f "$password_file"
    printf 'host all all 0.0.0.0/0 scram-sha-256\nhost all all ::/0 scram-sha-256\n' \
        >> "$PGDATA/pg_hba.conf"
    echo "CREATE DATABASE \"$POSTGRES_DB\" OWNER \"$POSTGRES_USER\";" \
        | postgres --single -D "$PGDATA" -j postgres >/dev/null
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
