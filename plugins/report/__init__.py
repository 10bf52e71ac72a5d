"""Certification reports: the facts of a run, its verdict, and the JSON/HTML/Markdown documents.

* ``facts``: what each test is (category, HAL version, operations, operand
  type, execution path, tier) and how it ended (DESIGN.md "Outcomes");
* ``collector``: the pytest side: ``--cert-report``, ``--shard``, ``--expect-fail``,
  correct under pytest-xdist;
* ``document``: the report document (``schema.json``), its summary, scope and
  verdict, and merging shards;
* ``render``: report.html and report.md from a document (jinja2);
* ``cli`` (``nnhal-report``) and ``certify`` (``nnhal-certify``).

Nothing here is imported by the plugin until a report option is used.
"""
