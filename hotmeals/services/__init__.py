"""The application's rules and workflows: what the UI and the API call.

What a payment pays for is registered with the payment service by the module that owns it
(``services/payments/purposes.py`` keeps the registry and knows none of them). Those modules
are imported here because every process that uses a service imports this package first: the
app, the API, the job runner, the command-line tools and the tests then all have every
purpose registered before a payment outcome can be recorded, and no entry point can forget
it. They sit above the payment service and import it, never the other way round, so this
adds no import circle.
"""

from hotmeals.services import donations as _donations
from hotmeals.services.ordering import payment_purposes as _order_purposes
from hotmeals.services.payments.purposes import missing_purposes

assert not missing_purposes(), f"payment purposes without a handler: {missing_purposes()}"
del _donations, _order_purposes
