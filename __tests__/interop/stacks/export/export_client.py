"""zeep and suds, given the WSDL accord exported from a .spec (fetched from the stub's ?wsdl): call the stub, check the answer's Python types."""
import datetime
import decimal
import sys

which, url = sys.argv[1], sys.argv[2]
if which == 'zeep':
    import zeep

    c = zeep.Client(url)
    q = c.service.getQuote(symbol='ACME')
    assert isinstance(q.price, decimal.Decimal), repr(q.price)
    assert isinstance(q.volume, int), repr(q.volume)
    assert q.status in ('open', 'closed', 'halted'), repr(q.status)
    assert isinstance(q.day, datetime.date), repr(q.day)
    assert isinstance(q.history, list), repr(q.history)
    assert isinstance(q.currency, str), repr(q.currency)
    symbols = c.service.listSymbols()
    try:
        c.service.getQuote(symbol='NOPE')
        raise SystemExit('NOPE did not fault')
    except zeep.exceptions.Fault as f:
        assert f.detail is not None and f.detail[0].tag == '{urn:accord:quotes}unknownSymbol', f.detail
    print('ok', q.price, q.volume, q.status, q.day, len(q.history))
else:
    from suds.client import Client
    from suds import WebFault

    c = Client(url, cache=None)
    q = c.service.getQuote('ACME')
    assert isinstance(q.volume, int), repr(q.volume)
    assert isinstance(q.day, datetime.date), repr(q.day)
    assert q.status in ('open', 'closed', 'halted'), repr(q.status)
    assert decimal.Decimal(str(q.price)) is not None
    assert isinstance(q._currency, str), repr(q._currency)
    c.service.listSymbols()
    try:
        c.service.getQuote('NOPE')
        raise SystemExit('NOPE did not fault')
    except WebFault as f:
        assert f.fault.detail.unknownSymbol.symbol is not None, f.fault
    print('ok', q.price, q.volume, q.status, q.day)
