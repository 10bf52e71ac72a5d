"""The conformance suite: run it with ``pytest --pyargs conformance --driver=...``.

It sees the driver under test only through the plugin's ``device`` fixture and
never imports the reference driver.
"""
