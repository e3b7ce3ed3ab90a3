"""The one access policy: who may read, act on and review whose data (``access.policy``), and the
one sign-in check of the pages (``access.login``). A core app, neither the engine nor a family:
it imports no family; each family declares the relations it owns in its own ``access`` module,
which the policy discovers."""
