import java.util.Calendar;
import java.util.TimeZone;

/** The Orders service: Axis 1.4's java:RPC provider calls these, rpc/encoded (server-config.wsdd). */
public class OrdersService {
  public Order getOrder(int id) throws NotFound {
    if (id == 404) throw new NotFound(id);
    Order o = new Order();
    o.setId(id);
    o.setStatus(Status.shipped);
    Calendar placed = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
    placed.clear();
    placed.set(2024, Calendar.MAY, 17, 10, 30, 0);
    o.setPlaced(placed);
    o.setTotal(new java.math.BigDecimal("12.50"));
    o.setLines(new Line[] {new Line("A-1", 2), new Line("B-2", 1)});
    return o;
  }

  public Order[] listOrders(Status status, Calendar since) throws NotFound {
    Order o = getOrder(7);
    o.setStatus(status);
    o.setPlaced(since);
    return new Order[] {o};
  }
}
