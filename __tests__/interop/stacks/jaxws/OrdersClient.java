import java.math.BigDecimal;
import java.net.URL;
import javax.jws.WebMethod;
import javax.jws.WebParam;
import javax.jws.WebResult;
import javax.jws.WebService;
import javax.xml.namespace.QName;
import javax.xml.ws.RequestWrapper;
import javax.xml.ws.ResponseWrapper;
import javax.xml.ws.Service;
import javax.xml.ws.soap.SOAPFaultException;

/**
 * A JAX-WS client of the Orders service, from its WSDL: `java -cp <jaxws jars>:<dir of Orders.java classes>
 * OrdersClient.java <wsdl url> <service> <port> <id> [fault] [-- ...]`. The service endpoint interface is
 * the one wsimport writes, by hand (see Orders.java for why). Checks the answer's Java types, or that the
 * call throws the declared fault (Orders.NotFound) with its detail.
 */
public class OrdersClient {
  @WebService(targetNamespace = Orders.NS, name = "OrdersPort")
  public interface OrdersPort {
    @WebMethod(action = "urn:accord:interop:orders:getOrder") @WebResult(name = "order", targetNamespace = Orders.NS)
    @RequestWrapper(localName = "getOrder", targetNamespace = Orders.NS, className = "Orders$GetOrder")
    @ResponseWrapper(localName = "getOrderResponse", targetNamespace = Orders.NS, className = "Orders$GetOrderResponse")
    Orders.Order getOrder(@WebParam(name = "id", targetNamespace = Orders.NS) int id) throws Orders.NotFound;
  }

  public static void main(String[] args) throws Exception {
    int failed = 0;
    for (int i = 0; i < args.length; ) {
      String wsdl = args[i], service = args[i + 1], port = args[i + 2];
      int id = Integer.parseInt(args[i + 3]);
      i += 4;
      boolean fault = i < args.length && args[i].equals("fault");
      if (fault) i++;
      if (i < args.length && args[i].equals("--")) i++;
      String what = service + " " + id + (fault ? " fault" : "");
      try {
        OrdersPort p = Service.create(new URL(wsdl), new QName(Orders.NS, service)).getPort(new QName(Orders.NS, port), OrdersPort.class);
        Orders.Order o = p.getOrder(id);
        if (fault) throw new AssertionError("expected the NotFound fault, got an order");
        if (!(o.total instanceof BigDecimal) || o.status == null || !(o.status.equals("open") || o.status.equals("shipped") || !o.status.isEmpty()))
          throw new AssertionError("order " + o.id + " " + o.total + " " + o.status);
        System.out.println("ok " + what + ": " + o.id + " " + o.total + " " + o.status);
      } catch (Orders.NotFound e) {
        if (!fault) { System.out.println("FAILED " + what + ": " + e); failed++; continue; }
        System.out.println("ok " + what + ": NotFound " + e.getFaultInfo().id);
      } catch (SOAPFaultException | AssertionError e) {
        System.out.println("FAILED " + what + ": " + e);
        failed++;
      }
    }
    System.exit(failed == 0 ? 0 : 1);
  }
}
