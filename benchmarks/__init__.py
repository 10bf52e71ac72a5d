"""Performance measurements of the project (not tests): ``python -m benchmarks [NAME...]``.

Each benchmark times its subject over a few runs (median of
``time.perf_counter``) and, in the same run, a baseline on the same machine,
so the printed ratio can be compared across machines. README.md lists them.
"""
