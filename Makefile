.PHONY: run serve worker test lint format migrations-check bench bench-concurrency bench-stress bench-http bench-capacity

run:
	bin/run

serve:
	bin/serve

worker:
	bin/serve worker

test:
	bin/test

lint:
	.venv/bin/ruff check . && .venv/bin/ruff format --check .

format:
	.venv/bin/ruff check --fix . && .venv/bin/ruff format .

migrations-check:
	.venv/bin/python manage.py makemigrations --check --dry-run

bench:
	.venv/bin/python manage.py bench_tools

bench-concurrency:
	.venv/bin/python manage.py bench_concurrency

bench-stress:
	.venv/bin/python manage.py bench_concurrency --messages 5 --delay 1

# Served CPU a request against in-process, per endpoint, for each serving design (SQLite;
# BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres for PostgreSQL).
bench-http:
	.venv/bin/python manage.py bench_http $(if $(BENCH_DATABASE_URL),--database-url $(BENCH_DATABASE_URL))

# How many active athletes bin/serve's design holds at p99 ≤ 250 ms, against the design before it.
bench-capacity:
	.venv/bin/python manage.py bench_http --mix-only --designs=split,asgi $(if $(BENCH_DATABASE_URL),--database-url $(BENCH_DATABASE_URL))
