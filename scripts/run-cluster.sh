#!/usr/bin/env bash
# The scale-out profile on one machine: PostgreSQL (the database created when missing), Redis,
# WORKERS backend workers (Granian, a failed worker respawned), the periodic jobs leased to one
# worker at a time. `make run-cluster WORKERS=2` calls this after `make install`.
#
#   PG_HOST (127.0.0.1), PG_PORT (5432), PG_USER (postgres), CLUSTER_DB (hotmeals),
#   REDIS_HOST (127.0.0.1), REDIS_PORT (6379), REDIS_DB (0), WORKERS (2), PORT (1805)
set -euo pipefail
cd "$(dirname "$0")/.."

PG_HOST=${PG_HOST:-127.0.0.1}
PG_PORT=${PG_PORT:-5432}
PG_USER=${PG_USER:-postgres}
CLUSTER_DB=${CLUSTER_DB:-hotmeals}
REDIS_HOST=${REDIS_HOST:-127.0.0.1}
REDIS_PORT=${REDIS_PORT:-6379}
REDIS_DB=${REDIS_DB:-0}
WORKERS=${WORKERS:-2}
PORT=${PORT:-1805}
PY=.venv/bin/python

if ! pg_isready -h "$PG_HOST" -p "$PG_PORT" >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && [ -d /etc/postgresql ]; then
    echo "Starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start
    for _ in $(seq 30); do pg_isready -h "$PG_HOST" -p "$PG_PORT" >/dev/null 2>&1 && break; sleep 1; done
  fi
  pg_isready -h "$PG_HOST" -p "$PG_PORT" >/dev/null || { echo "PostgreSQL does not answer at $PG_HOST:$PG_PORT"; exit 1; }
fi
if ! redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v redis-server >/dev/null; then
    echo "Starting Redis"
    redis-server --daemonize yes --bind "$REDIS_HOST" --port "$REDIS_PORT" --save "" --appendonly no
    for _ in $(seq 30); do redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 1; done
  fi
  redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping >/dev/null || { echo "Redis does not answer at $REDIS_HOST:$REDIS_PORT"; exit 1; }
fi

"$PY" - "$PG_HOST" "$PG_PORT" "$PG_USER" "$CLUSTER_DB" <<'PYEOF'
import sys

import psycopg

host, port, user, name = sys.argv[1:]
with psycopg.connect(host=host, port=port, user=user, dbname="postgres", autocommit=True) as conn:
    if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
        conn.execute(f'CREATE DATABASE "{name}"')
        print(f"Created the database {name}")
PYEOF

export DATABASE_URL="postgresql://$PG_USER@$PG_HOST:$PG_PORT/$CLUSTER_DB"
export REDIS_URL="redis://$REDIS_HOST:$REDIS_PORT/$REDIS_DB"
export GRANIAN_WORKERS="$WORKERS"
"$PY" -m hotmeals.cli migrate
"$PY" -m hotmeals.cli seed
echo "Serving the cluster profile on http://localhost:$PORT/parent/ ($WORKERS workers, PostgreSQL $CLUSTER_DB, Redis db $REDIS_DB)"
echo "Readiness: http://localhost:$PORT/api/v1/ready   Jobs: DATABASE_URL=$DATABASE_URL $PY -m hotmeals.jobs list"
exec "$PY" -m hotmeals.serve run --env prod --single-port --backend-port "$PORT"
