"""Coaching quality you can measure: scenario files run through the real conversation path.

``python manage.py eval_coach`` loads scenario files (TOML, ``evals/scenarios/``), and for each
scenario, ``k`` times: builds its program fixture for a fresh athlete inside a transaction that is
rolled back afterwards, sends the athlete's messages with ``chat.services.message_send`` and runs
the reply with ``chat.agent.run_turn`` in-process (the same code the Celery task runs), clicks
Apply or Cancel through ``chat.proposals``, and checks what must be true after each step. Nothing
here re-implements the agent: what is measured is the product.

* ``scenarios``: the file format, loading and validation (``Scenario``, ``Step``).
* ``templates``: ``{date:today+1}``, ``{ref:today}``, ``{workout:Title}`` in messages and matchers,
  resolved against each run's fixture.
* ``matchers``: argument matchers (exact, one_of, range, regex, any, absent) and call matching.
* ``fixtures``: the program, training data and library a scenario starts from.
* ``runner``: one run of one scenario through the product; ``results`` what it observed;
  ``checks`` what each step expects against that.
* ``report``: k runs per scenario, pass^k, exact tool-call match, tokens, latency, the JSON report.
"""
