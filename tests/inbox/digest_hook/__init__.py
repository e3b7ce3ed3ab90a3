"""A stand-in app with a ``digest`` module, as the roster would have (tests of ``inbox.notify``)."""
