"""Performance measurements of the project (not tests): ``python -m benchmarks [NAME...]``.

Each benchmark times its subject over a few runs (median of
``time.perf_counter``) and, in the same run, a baseline on the same machine,
so the printed ratio can be compared across machines. Each returns a
``benchmarks.result.Result`` (its printed line and its figures);
``__main__`` prints the lines, then a table of every figure, and can write
them as JSON. README.md lists them.
"""
