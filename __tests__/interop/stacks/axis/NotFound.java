/**
 * The declared fault of getOrder: a checked exception with bean properties, which Axis writes as a
 * wsdl:fault and sends as a detail entry typed NotFound (with its own stackTrace and hostname beside).
 */
public class NotFound extends Exception {
  private int id;

  public NotFound() {}

  public NotFound(int id) {
    super("no such order");
    this.id = id;
  }

  public int getId() { return id; }
  public void setId(int id) { this.id = id; }
}
