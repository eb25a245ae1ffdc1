"""An Orders service in spyne (document/literal, lxml schema validation on), SOAP 1.1 at /soap11 and
SOAP 1.2 at /soap12. Prints the port it listens on. Run with Debian's python3 (python3-spyne)."""
import sys
from decimal import Decimal
from wsgiref.simple_server import make_server, WSGIRequestHandler

from spyne import Application, ComplexModel, Decimal as SDecimal, Enum, Fault, Integer, Unicode, ServiceBase, rpc
from spyne.protocol.soap import Soap11, Soap12
from spyne.server.wsgi import WsgiApplication

TNS = 'urn:accord:interop:orders'
Status = Enum('open', 'shipped', type_name='Status')


class Order(ComplexModel):
    __namespace__ = TNS
    id = Integer(min_occurs=1, nillable=False)
    total = SDecimal(min_occurs=1, nillable=False)
    status = Status.customize(min_occurs=1, nillable=False)
    note = Unicode(min_occurs=0)


class NotFound(Fault):
    __namespace__ = TNS

    def __init__(self, id):
        super().__init__(faultcode='Client.NotFound', faultstring='no such order', detail={'id': str(id)})


class Orders(ServiceBase):
    @rpc(Integer(min_occurs=1, nillable=False), _returns=Order, _throws=[NotFound], _body_style='wrapped')
    def getOrder(ctx, id):
        if id == 404:
            raise NotFound(id)
        return Order(id=id, total=Decimal('12.50'), status='open')


def app(protocol):
    return WsgiApplication(Application([Orders], TNS, name='Orders', in_protocol=protocol(validator='lxml'), out_protocol=protocol()))


apps = {'/soap11': app(Soap11), '/soap12': app(Soap12)}


def dispatch(environ, start_response):
    path = environ.get('PATH_INFO', '')
    target = apps.get(path)
    if target is None:
        start_response('404 Not Found', [('Content-Type', 'text/plain')])
        return [b'not found']
    environ['SCRIPT_NAME'] = path
    environ['PATH_INFO'] = ''
    return target(environ, start_response)


class Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass


server = make_server('127.0.0.1', int(sys.argv[1]) if len(sys.argv) > 1 else 0, dispatch, handler_class=Quiet)
print(server.server_port, flush=True)
server.serve_forever()
