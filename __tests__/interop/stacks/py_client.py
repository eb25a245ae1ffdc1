"""A client of the Orders service in zeep or suds: `py_client.py zeep|suds <wsdl url> <id> [fault] [port=<name>]`.
Checks the answer's types in Python (id an int, total a Decimal, status a string), or,
with `fault`, that the call raises the library's SOAP fault. Prints `ok ...` or exits non-zero."""
import sys
from decimal import Decimal

lib, wsdl, ident = sys.argv[1], sys.argv[2], int(sys.argv[3])
want_fault = 'fault' in sys.argv[4:]
port = next((a[5:] for a in sys.argv[4:] if a.startswith('port=')), None)


def check(order):
    assert isinstance(order.id, int), ('id', order.id, type(order.id))
    assert isinstance(order.total, Decimal), ('total', order.total, type(order.total))
    assert isinstance(order.status, str) and order.status != '', ('status', order.status)


if lib == 'zeep':
    import zeep
    from zeep.exceptions import Fault
    client = zeep.Client(wsdl)
    service = client.bind(next(iter(client.wsdl.services)), port) if port else client.service
    try:
        order = service.getOrder(ident)
    except Fault as f:
        if not want_fault:
            raise
        assert f.code, 'a fault code'
        print('ok fault', f.code, f.message)
        sys.exit(0)
else:
    from suds.client import Client
    from suds import WebFault
    client = Client(wsdl, cache=None)
    if port:
        client.set_options(port=port)
    try:
        order = client.service.getOrder(ident)
    except WebFault as f:
        if not want_fault:
            raise
        print('ok fault', f.fault.faultcode, f.fault.faultstring)
        sys.exit(0)
    # suds reads xs:integer as int and xs:decimal as Decimal only when it types by the schema.
if want_fault:
    sys.exit('expected a SOAP fault, got ' + repr(order))
check(order)
print('ok', order.id, order.total, order.status)
