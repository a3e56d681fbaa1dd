#!/bin/sh
# Container start: migrate the database on /data, optionally create the
# service user with a known token (FOOD_API_TOKEN) and the demo kitchen
# (FOOD_API_SEED_DEMO=true), then hand the process over to gunicorn.
set -eu

python manage.py migrate --noinput

if [ -n "${FOOD_API_TOKEN:-}" ]; then
    seed=""
    case "${FOOD_API_SEED_DEMO:-false}" in
        1|true|TRUE|True|yes|on) seed="--seed-demo" ;;
    esac
    # The token is printed on stdout by design; keep it out of the logs.
    python manage.py sous_bootstrap --username "${FOOD_API_USERNAME:-sous}" \
        --token "$FOOD_API_TOKEN" $seed >/dev/null
fi

# SQLite takes one writer at a time, so a couple of workers is plenty.
exec gunicorn foodapi.wsgi:application \
    --bind "0.0.0.0:${FOOD_API_PORT:-8042}" \
    --workers "${FOOD_API_WORKERS:-2}" \
    --access-logfile - \
    --error-logfile - \
    "$@"
