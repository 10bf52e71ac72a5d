"""The driver under test in a process of its own: the wire channel, the service, the proxies.

``hal`` is the contract a driver implements and imports nothing of this package;
the pytest plugin and ``nnhal-certify`` use it to host a driver out of the
harness's process (``--driver-isolation=process``).
"""

from hal.show import register_type, show_text
from isolation import channel as _channel

if hasattr(_channel, "Opaque"):
    # A driver's object of no HAL type arrives as an Opaque: shown by its type name only,
    # as hal.show shows such an object in-process (its text was made by the driver).
    register_type(_channel.Opaque, lambda value: f"<{show_text(value.type_name)} object>")
