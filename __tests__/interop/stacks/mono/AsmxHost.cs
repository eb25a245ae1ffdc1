// A tiny ASP.NET host for Mono's ASMX runtime: xsp4 of Debian 12 does not start on Mono 6.8
// (its TLS code names a Mono.Security type Mono 6 removed). `mono AsmxHost.exe <app dir>` serves
// the .asmx files of <app dir> (AsmxHost.exe in <app dir>/bin) on 127.0.0.1, a free port, which it
// prints on a line of its own. Each request is handed to System.Web (ApplicationHost) as xsp does.
using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Text;
using System.Web;
using System.Web.Hosting;

[Serializable]
public class Answer {
  public int Status = 200;
  public string Reason = "OK";
  public List<string[]> Headers = new List<string[]>();
  public byte[] Body = new byte[0];
}

public class Worker : SimpleWorkerRequest {
  readonly string verb, rawUrl, host; readonly int port;
  readonly Dictionary<string, string> headers; readonly byte[] body;
  readonly MemoryStream output = new MemoryStream();
  public readonly Answer Answer = new Answer();

  public Worker(string page, string query, string verb, string rawUrl, string host, int port, Dictionary<string, string> headers, byte[] body)
    : base(page, query, TextWriter.Null) {
    this.verb = verb; this.rawUrl = rawUrl; this.host = host; this.port = port; this.headers = headers; this.body = body;
  }
  public override string GetHttpVerbName() { return verb; }
  public override string GetRawUrl() { return rawUrl; }
  public override string GetServerName() { return host; }
  public override int GetLocalPort() { return port; }
  public override string GetLocalAddress() { return "127.0.0.1"; }
  public override string GetRemoteAddress() { return "127.0.0.1"; }
  public override string GetKnownRequestHeader(int index) { return GetUnknownRequestHeader(GetKnownRequestHeaderName(index)); }
  public override string GetUnknownRequestHeader(string name) { string v; return headers.TryGetValue(name.ToLowerInvariant(), out v) ? v : null; }
  public override string[][] GetUnknownRequestHeaders() {
    var all = new List<string[]>();
    foreach (var h in headers) if (GetKnownRequestHeaderIndex(h.Key) < 0) all.Add(new[] { h.Key, h.Value });
    return all.ToArray();
  }
  public override byte[] GetPreloadedEntityBody() { return body; }
  public override bool IsEntireEntityBodyIsPreloaded() { return true; }
  public override int ReadEntityBody(byte[] buffer, int size) { return 0; }
  public override void SendStatus(int code, string reason) { Answer.Status = code; Answer.Reason = reason; }
  public override void SendKnownResponseHeader(int index, string value) { Answer.Headers.Add(new[] { GetKnownResponseHeaderName(index), value }); }
  public override void SendUnknownResponseHeader(string name, string value) { Answer.Headers.Add(new[] { name, value }); }
  public override void SendResponseFromMemory(byte[] data, int length) { output.Write(data, 0, length); }
  public override void SendResponseFromFile(string filename, long offset, long length) {
    byte[] all = File.ReadAllBytes(filename); output.Write(all, (int) offset, (int) (length < 0 ? all.Length - offset : length));
  }
  public override void FlushResponse(bool finalFlush) { }
  public override void EndOfRequest() { Answer.Body = output.ToArray(); }
}

public class AppHost : MarshalByRefObject {
  public override object InitializeLifetimeService() { return null; }
  public Answer Process(string page, string query, string verb, string rawUrl, string host, int port, Dictionary<string, string> headers, byte[] body) {
    var w = new Worker(page, query, verb, rawUrl, host, port, headers, body);
    HttpRuntime.ProcessRequest(w);
    return w.Answer;
  }
}

public static class AsmxHost {
  public static void Main(string[] args) {
    string dir = Path.GetFullPath(args[0]);
    var app = (AppHost) ApplicationHost.CreateApplicationHost(typeof(AppHost), "/", dir);
    var probe = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
    probe.Start(); int port = ((IPEndPoint) probe.LocalEndpoint).Port; probe.Stop();
    var listener = new HttpListener();
    listener.Prefixes.Add("http://127.0.0.1:" + port + "/");
    listener.Start();
    Console.WriteLine(port);
    Console.Out.Flush();
    while (true) {
      HttpListenerContext ctx = listener.GetContext();
      try {
        var req = ctx.Request;
        var headers = new Dictionary<string, string>();
        foreach (string k in req.Headers.AllKeys) headers[k.ToLowerInvariant()] = req.Headers[k];
        var body = new MemoryStream();
        req.InputStream.CopyTo(body);
        string path = req.Url.AbsolutePath.TrimStart('/');
        string query = req.Url.Query.TrimStart('?');
        Answer a = app.Process(path, query, req.HttpMethod, req.RawUrl, req.Url.Host, port, headers, body.ToArray());
        var res = ctx.Response;
        res.StatusCode = a.Status;
        foreach (var h in a.Headers) {
          if (string.Equals(h[0], "Content-Length", StringComparison.OrdinalIgnoreCase)) continue;
          if (string.Equals(h[0], "Content-Type", StringComparison.OrdinalIgnoreCase)) res.ContentType = h[1];
          else if (!string.Equals(h[0], "Transfer-Encoding", StringComparison.OrdinalIgnoreCase) && !string.Equals(h[0], "Connection", StringComparison.OrdinalIgnoreCase)) res.Headers[h[0]] = h[1];
        }
        res.ContentLength64 = a.Body.Length;
        res.OutputStream.Write(a.Body, 0, a.Body.Length);
        res.Close();
      } catch (Exception e) {
        Console.Error.WriteLine(e);
        try { ctx.Response.StatusCode = 500; ctx.Response.Close(); } catch { }
      }
    }
  }
}
