.PHONY: run test lint format migrations-check bench

run:
	bin/run

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
