// A .NET client of the Orders service, with the proxy Mono's `wsdl` tool generates from its WSDL
// (compiled with it by mcs): `mono OrdersClient.exe <service url> get <id> [fault] [soap12]` or
// `... list <status> <since> [soap12]`, several calls separated by `--` (one Mono start for all).
// XmlSerializer types the answer (an int, an enum, a DateTime, a decimal, an array of Line); a bad
// value throws. With `fault`, the call must throw a SoapException. Prints `ok ...` a call, or exits 1.
using System;
using System.Globalization;
using System.Web.Services.Protocols;

public static class OrdersClient {
  static string Show(Order o) {
    if (o == null) throw new Exception("no order");
    if (!Enum.IsDefined(typeof(Status), o.status)) throw new Exception("status " + o.status);
    if (o.placed == default(DateTime)) throw new Exception("no placed date");
    int lines = o.lines == null ? 0 : o.lines.Length;
    if (o.lines != null) foreach (Line l in o.lines) if (l == null) throw new Exception("a null line");
    return o.id + " " + o.status + " " + o.placed.ToUniversalTime().ToString("yyyy-MM-dd", CultureInfo.InvariantCulture) + " " + o.total.ToString(CultureInfo.InvariantCulture) + " lines=" + lines;
  }

  public static int Main(string[] argv) {
    int code = Run(argv);
    // Exit now rather than return: Mono at times hangs in its shutdown with the HTTP client's threads
    // still alive, after every line is printed (seen once in CI: all calls ok, killed after 60 s).
    Console.Out.Flush();
    Environment.Exit(code);
    return code;
  }

  static int Run(string[] argv) {
    // Calls separated by `--`, one Mono start for them all; each prints its line.
    var call = new System.Collections.Generic.List<string>();
    foreach (string a in argv) {
      if (a == "--") { if (Call(call.ToArray()) != 0) return 1; call.Clear(); } else call.Add(a);
    }
    return call.Count > 0 ? Call(call.ToArray()) : 0;
  }

  static int Call(string[] args) {
    var client = new Orders();
    client.Url = args[0];
    if (Array.IndexOf(args, "soap12") >= 0) client.SoapVersion = SoapProtocolVersion.Soap12;
    bool wantFault = Array.IndexOf(args, "fault") >= 0;
    try {
      if (args[1] == "list") {
        Status status = (Status) Enum.Parse(typeof(Status), args[2]);
        DateTime since = DateTime.Parse(args[3], CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal);
        Order[] all = client.listOrders(status, since);
        if (all == null) throw new Exception("no orders");
        foreach (Order o in all) Show(o);
        Console.WriteLine("ok " + all.Length + (all.Length > 0 ? " " + Show(all[0]) : ""));
      } else {
        Order o = client.getOrder(int.Parse(args[2], CultureInfo.InvariantCulture));
        if (wantFault) { Console.WriteLine("expected a SOAP fault, got " + Show(o)); return 1; }
        Console.WriteLine("ok " + Show(o));
      }
      return 0;
    } catch (SoapException e) {
      if (!wantFault) { Console.WriteLine(e); return 1; }
      Console.WriteLine("ok fault " + e.Code.Name + (e.Detail == null || e.Detail.InnerXml == "" ? "" : " " + e.Detail.InnerXml));
      return 0;
    }
  }
}
