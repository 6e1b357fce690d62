#!/usr/bin/env bash
# Let the machine's PostgreSQL (127.0.0.1:5432, user postgres) stream to a replica on
# 127.0.0.1, as the replica tests and `bench/verify.py --replica` start one: a `replication`
# entry in pg_hba.conf (trust, like the entries the tests use), then a reload. Needs write
# access to pg_hba.conf (root, or the postgres user). wal_level must be `replica` or
# `logical` (the default) and max_wal_senders above 0 (default 10).
set -euo pipefail
PSQL=(psql -h 127.0.0.1 -p 5432 -U postgres -d postgres -Atq)
rules=$("${PSQL[@]}" -c "SELECT count(*) FROM pg_hba_file_rules
  WHERE 'replication' = ANY(database) AND type = 'host' AND address = '127.0.0.1'")
if [ "$rules" = "0" ]; then
  hba=$("${PSQL[@]}" -c "SHOW hba_file")
  echo "==> Allowing replication from 127.0.0.1 in $hba"
  printf '%s\n' "host replication all 127.0.0.1/32 trust" >> "$hba"
  "${PSQL[@]}" -c "SELECT pg_reload_conf()" >/dev/null
fi
level=$("${PSQL[@]}" -c "SHOW wal_level")
senders=$("${PSQL[@]}" -c "SHOW max_wal_senders")
if [ "$level" = "minimal" ] || [ "$senders" = "0" ]; then
  echo "PostgreSQL cannot stream to a replica: wal_level=$level, max_wal_senders=$senders." >&2
  exit 1
fi
