"""A client of the rpc/encoded listOrders service in zeep or suds: `rpc_client.py zeep|suds <wsdl url> <count>`.
Checks in Python that the SOAP-encoded array arrives as a list of structs with an int id and a numeric total."""
import sys
from decimal import Decimal

lib, wsdl, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
if lib == 'zeep':
    import zeep
    orders = zeep.Client(wsdl).service.listOrders(count)
else:
    from suds.client import Client
    orders = Client(wsdl, cache=None).service.listOrders(count)
items = list(orders) if not hasattr(orders, 'item') else list(orders.item)
assert len(items) >= 1, ('no orders', orders)
for o in items:
    assert isinstance(o.id, int), ('id', o.id, type(o.id))
    assert isinstance(o.total, (Decimal, float)), ('total', o.total, type(o.total))
    assert isinstance(o.status, str), ('status', o.status)
print('ok', len(items), [(o.id, str(o.total), o.status) for o in items][:2])
