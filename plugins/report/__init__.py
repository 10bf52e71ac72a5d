"""Certification reports: the facts of a run, its verdict, and the JSON/HTML/Markdown documents.

* ``facts``: what each test is (category, HAL version, operations, operand
  type, execution path, tier) and how it ended (docs/report.md, "Outcomes");
* ``collector``: the pytest side: ``--cert-report``, ``--shard``, ``--expect-fail``,
  correct under pytest-xdist;
* ``document``: the report document (``schema.json``), its summary, matrix,
  scope and verdict, and merging shards;
* ``counts``: a run's selected and deselected tests, by reason, in words every
  place that prints them shares;
* ``causes``: the failures grouped by cause (a normalized reason);
* ``compact``: report.json's compact rows of the tests that did not go wrong;
* ``render``: report.html and report.md from a document (jinja2);
* ``compare``: two documents item by item (fixed, still failing, newly failing,
  gone, new), comparison.json and comparison.md;
* ``selection``: the pytest side of ``nnhal-certify --rerun-failed`` (the named
  items the suite still has);
* ``cli`` (``nnhal-report``) and ``certify`` (``nnhal-certify``).

Nothing here is imported by the plugin until a report option is used.
"""
