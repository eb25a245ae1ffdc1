/** An order: an int, an enumeration, a date, a decimal and a SOAP-encoded array of lines. */
public class Order {
  private int id;
  private Status status;
  private java.util.Calendar placed;
  private java.math.BigDecimal total;
  private Line[] lines;
  private String note;

  public int getId() { return id; }
  public void setId(int id) { this.id = id; }
  public Status getStatus() { return status; }
  public void setStatus(Status status) { this.status = status; }
  public java.util.Calendar getPlaced() { return placed; }
  public void setPlaced(java.util.Calendar placed) { this.placed = placed; }
  public java.math.BigDecimal getTotal() { return total; }
  public void setTotal(java.math.BigDecimal total) { this.total = total; }
  public Line[] getLines() { return lines; }
  public void setLines(Line[] lines) { this.lines = lines; }
  public String getNote() { return note; }
  public void setNote(String note) { this.note = note; }
}
