import java.math.BigDecimal;
import java.net.URL;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;
import orders.client.Line;
import orders.client.NotFound;
import orders.client.Order;
import orders.client.OrdersService;
import orders.client.OrdersServiceServiceLocator;
import orders.client.Status;

/**
 * An Axis 1.4 client of the Orders service, with the stubs WSDL2Java generates from its ?wsdl
 * (package orders.client): `java OrdersClient <endpoint> get <id> [fault]` or `... list <status>
 * <since>`, several calls separated by `--` (one JVM for all). Axis deserializes the rpc/encoded
 * answer, multiRefs and all, into the generated beans (an int, the Status enumeration, a Calendar, a
 * BigDecimal, a Line[]); with `fault`, the call must throw: `ok fault NotFound <id>` when Axis reads
 * the declared fault into its generated NotFound, `ok fault <code>` for any other SOAP fault.
 * Prints `ok ...` a call, or exits 1.
 */
public class OrdersClient {
  static String show(Order o) {
    if (o == null) throw new IllegalStateException("no order");
    Status s = o.getStatus();
    if (s == null || Status.fromValue(s.getValue()) != s) throw new IllegalStateException("status " + s);
    Calendar placed = o.getPlaced();
    if (placed == null) throw new IllegalStateException("no placed date");
    SimpleDateFormat day = new SimpleDateFormat("yyyy-MM-dd");
    day.setTimeZone(TimeZone.getTimeZone("UTC"));
    BigDecimal total = o.getTotal();
    if (total == null) throw new IllegalStateException("no total");
    Line[] lines = o.getLines();
    if (lines != null) for (Line l : lines) if (l == null) throw new IllegalStateException("a null line");
    return o.getId() + " " + s.getValue() + " " + day.format(placed.getTime()) + " " + total.toPlainString() + " lines=" + (lines == null ? 0 : lines.length);
  }

  static void call(List<String> a) throws Exception {
    OrdersService port = new OrdersServiceServiceLocator().getOrders(new URL(a.get(0)));
    boolean wantFault = a.contains("fault");
    String said;
    try {
      if (a.get(1).equals("list")) {
        Order[] all = port.listOrders(Status.fromValue(a.get(2)), java.util.GregorianCalendar.from(java.time.ZonedDateTime.parse(a.get(3))));
        if (all == null) throw new IllegalStateException("no orders");
        for (Order o : all) show(o);
        said = "ok " + all.length + (all.length > 0 ? " " + show(all[0]) : "");
      } else {
        said = "ok " + show(port.getOrder(Integer.parseInt(a.get(2))));
      }
    } catch (NotFound f) {
      if (!wantFault) throw f;
      System.out.println("ok fault NotFound " + f.getId());
      return;
    } catch (org.apache.axis.AxisFault f) {
      if (!wantFault) throw f;
      System.out.println("ok fault " + f.getFaultCode().getLocalPart());
      return;
    }
    if (wantFault) throw new IllegalStateException("expected a SOAP fault, got " + said);
    System.out.println(said);
  }

  public static void main(String[] args) {
    List<String> a = new ArrayList<String>();
    try {
      for (int i = 0; i <= args.length; i++) {
        if (i == args.length || args[i].equals("--")) {
          if (!a.isEmpty()) call(a);
          a.clear();
        } else {
          a.add(args[i]);
        }
      }
    } catch (Exception e) {
      System.out.println("failed: " + a + ": " + e);
      System.exit(1);
    }
  }
}
