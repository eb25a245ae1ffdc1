import java.math.BigDecimal;
import javax.jws.WebMethod;
import javax.jws.WebParam;
import javax.jws.WebResult;
import javax.jws.WebService;
import javax.xml.bind.annotation.XmlAccessType;
import javax.xml.bind.annotation.XmlAccessorType;
import javax.xml.bind.annotation.XmlElement;
import javax.xml.bind.annotation.XmlRootElement;
import javax.xml.bind.annotation.XmlType;
import javax.xml.ws.BindingType;
import javax.xml.ws.Endpoint;
import javax.xml.ws.RequestWrapper;
import javax.xml.ws.ResponseWrapper;
import javax.xml.ws.WebFault;
import javax.xml.ws.soap.SOAPBinding;

/**
 * The Orders service on JAX-WS RI (Endpoint.publish): SOAP 1.1 at /orders11, SOAP 1.2 at /orders12.
 * `java -cp <jaxws jars> Orders.java <port>` prints the port once both are published. The wrapper and
 * fault beans are written out, as wsgen would: Debian's jaxws-rt generates them with a repackaged ASM
 * (com.sun.xml.ws.org.objectweb.asm) that Debian does not ship.
 */
public class Orders {
  static final String NS = "urn:accord:interop:orders";

  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "order", namespace = NS, propOrder = {"id", "total", "status", "note"})
  public static class Order {
    @XmlElement(required = true) public int id;
    @XmlElement(required = true) public BigDecimal total;
    @XmlElement(required = true) public String status;
    public String note;
  }

  @XmlRootElement(name = "getOrder", namespace = NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "getOrder", namespace = NS)
  public static class GetOrder { @XmlElement(name = "id", namespace = NS) public int id; }

  @XmlRootElement(name = "getOrderResponse", namespace = NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "getOrderResponse", namespace = NS)
  public static class GetOrderResponse { @XmlElement(name = "order", namespace = NS) public Order order; }

  @XmlRootElement(name = "notFound", namespace = NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "notFound", namespace = NS)
  public static class NotFoundInfo { @XmlElement(namespace = NS) public int id; }

  @WebFault(name = "notFound", targetNamespace = NS, faultBean = "Orders$NotFoundInfo")
  public static class NotFound extends Exception {
    private final NotFoundInfo info;
    public NotFound(String message, NotFoundInfo info) { super(message); this.info = info; }
    public NotFoundInfo getFaultInfo() { return info; }
  }

  public static class Impl {
    public Order getOrder(int id) throws NotFound {
      if (id == 404) { NotFoundInfo i = new NotFoundInfo(); i.id = id; throw new NotFound("no such order", i); }
      Order o = new Order(); o.id = id; o.total = new BigDecimal("12.50"); o.status = "open"; return o;
    }
  }

  @WebService(targetNamespace = NS, name = "OrdersPort", serviceName = "Orders11", portName = "Orders11Port")
  public static class Orders11 extends Impl {
    @WebMethod(action = "urn:accord:interop:orders:getOrder") @WebResult(name = "order", targetNamespace = NS)
    @RequestWrapper(localName = "getOrder", targetNamespace = NS, className = "Orders$GetOrder")
    @ResponseWrapper(localName = "getOrderResponse", targetNamespace = NS, className = "Orders$GetOrderResponse")
    public Order getOrder(@WebParam(name = "id", targetNamespace = NS) int id) throws NotFound { return super.getOrder(id); }
  }

  @WebService(targetNamespace = NS, name = "OrdersPort", serviceName = "Orders12", portName = "Orders12Port")
  @BindingType(SOAPBinding.SOAP12HTTP_BINDING)
  public static class Orders12 extends Impl {
    @WebMethod(action = "urn:accord:interop:orders:getOrder") @WebResult(name = "order", targetNamespace = NS)
    @RequestWrapper(localName = "getOrder", targetNamespace = NS, className = "Orders$GetOrder")
    @ResponseWrapper(localName = "getOrderResponse", targetNamespace = NS, className = "Orders$GetOrderResponse")
    public Order getOrder(@WebParam(name = "id", targetNamespace = NS) int id) throws NotFound { return super.getOrder(id); }
  }

  public static void main(String[] args) {
    String base = "http://127.0.0.1:" + args[0];
    Endpoint.publish(base + "/orders11", new Orders11());
    Endpoint.publish(base + "/orders12", new Orders12());
    System.out.println(args[0]);
  }
}
