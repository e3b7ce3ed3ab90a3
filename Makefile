.PHONY: run serve worker test lint format migrations-check bench bench-concurrency bench-stress bench-http

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

bench-http:
	.venv/bin/python manage.py bench_http
