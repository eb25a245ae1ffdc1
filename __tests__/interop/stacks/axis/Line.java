/** A line of an order: a bean, serialized by Axis's BeanSerializer (rpc/encoded). */
public class Line {
  private String sku;
  private int quantity;

  public Line() {}

  public Line(String sku, int quantity) {
    this.sku = sku;
    this.quantity = quantity;
  }

  public String getSku() { return sku; }
  public void setSku(String sku) { this.sku = sku; }
  public int getQuantity() { return quantity; }
  public void setQuantity(int quantity) { this.quantity = quantity; }
}
