"""The driver under test in a process of its own: the wire channel, the service, the proxies.

``hal`` is the contract a driver implements and imports nothing of this package;
the pytest plugin and ``nnhal-certify`` use it to host a driver out of the
harness's process (``--driver-isolation=process``).
"""
