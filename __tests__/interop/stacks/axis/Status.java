/**
 * The order's status as Axis 1.4 writes an enumeration (it predates Java's enum): a class with a
 * constant per value, getValue and fromValue, serialized by Axis's EnumSerializer (deploy in
 * server-config.wsdd); Axis's WSDL generator writes it as an xsd:string restriction.
 */
public class Status implements java.io.Serializable {
  private final String value;
  private static final java.util.HashMap<String, Status> table = new java.util.HashMap<String, Status>();

  protected Status(String value) {
    this.value = value;
    table.put(value, this);
  }

  public static final String _open = "open";
  public static final String _shipped = "shipped";
  public static final Status open = new Status(_open);
  public static final Status shipped = new Status(_shipped);

  public String getValue() { return value; }

  public static Status fromValue(String value) {
    Status s = table.get(value);
    if (s == null) throw new IllegalArgumentException(value);
    return s;
  }

  public static Status fromString(String value) { return fromValue(value); }

  public boolean equals(Object o) { return o == this; }

  public int hashCode() { return value.hashCode(); }

  public String toString() { return value; }
}
