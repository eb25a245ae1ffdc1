<%@ WebService Language="C#" Class="Orders" %>
// The Orders service as ASP.NET (Mono) writes it: an ASMX web service, document/literal, served by
// xsp4. getOrder answers an Order (an enum, a date, an array of lines); id 404 is a SoapException
// whose detail carries the id (ASMX declares no wsdl:fault; the client reads a SoapException).
using System;
using System.Web.Services;
using System.Web.Services.Protocols;
using System.Xml;

public enum Status { open, shipped }

public class Line {
  public string sku;
  public int quantity;
}

public class Order {
  public int id;
  public Status status;
  public DateTime placed;
  public decimal total;
  public Line[] lines;
  public string note;
}

[WebService(Namespace = "urn:accord:interop:orders")]
[WebServiceBinding(ConformsTo = WsiProfiles.BasicProfile1_1)]
public class Orders : WebService {
  [WebMethod]
  public Order getOrder(int id) {
    if (id == 404) {
      XmlDocument doc = new XmlDocument();
      XmlNode detail = doc.CreateNode(XmlNodeType.Element, SoapException.DetailElementName.Name, SoapException.DetailElementName.Namespace);
      XmlElement notFound = doc.CreateElement("notFound", "urn:accord:interop:orders");
      notFound.InnerText = id.ToString();
      detail.AppendChild(notFound);
      throw new SoapException("no such order", SoapException.ClientFaultCode, "", detail);
    }
    Order o = new Order();
    o.id = id;
    o.status = Status.shipped;
    o.placed = new DateTime(2024, 5, 17, 10, 30, 0, DateTimeKind.Utc);
    o.total = 12.50m;
    Line a = new Line(); a.sku = "A-1"; a.quantity = 2;
    Line b = new Line(); b.sku = "B-2"; b.quantity = 1;
    o.lines = new Line[] { a, b };
    return o;
  }

  [WebMethod]
  public Order[] listOrders(Status status, DateTime since) {
    Order o = getOrder(7);
    o.status = status;
    o.placed = since;
    return new Order[] { o };
  }
}
