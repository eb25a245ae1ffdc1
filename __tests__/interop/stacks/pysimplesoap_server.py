"""pysimplesoap (Debian's python3-pysimplesoap) serving one operation on 127.0.0.1:<port>: track(order) answers
an enumerated state, and order 99 raises a fault whose faultcode pysimplesoap writes unqualified."""
import sys
from http.server import HTTPServer

from pysimplesoap.server import SoapDispatcher, SOAPHandler, SoapFault

port = int(sys.argv[1])
url = "http://127.0.0.1:%d/" % port


def track(order):
    if order == 99:
        raise SoapFault("OrderNotFound", "no order %d" % order)
    return {"state": "packed" if order % 2 else "sent"}


dispatcher = SoapDispatcher("shop", location=url, action=url, namespace="http://example.com/shop/", prefix="ns0", trace=False, ns=True)
dispatcher.register_function("track", track, returns={"state": str}, args={"order": int})
server = HTTPServer(("127.0.0.1", port), SOAPHandler)
server.dispatcher = dispatcher
print("listening", flush=True)
server.serve_forever()
