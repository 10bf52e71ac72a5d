"""The driver under test in a process of its own: the wire format, channel, service, proxies.

``hal`` is the contract a driver implements and imports nothing of this package;
the pytest plugin and ``nnhal-certify`` use it to host a driver out of the
harness's process (``--driver-isolation=process``). ``codec`` is the wire format
(a fixed schema of HAL values over msgpack, every size bounded), ``channel``
the frames and calls over a Unix socket, ``service`` the driver's process,
``proxy`` the harness's side of it.
"""
