// A gSOAP client of the Orders service, WSDL first: wsdl2h (with typemap.dat) reads the service's
// WSDL into a header, soapcpp2 -j -C writes OrdersProxy from it, g++ builds this with them.
// `orders_client <endpoint> get <id> [fault]` or `... list <status> <since>`, several calls
// separated by `--`. Strict (SOAP_XML_STRICT): an answer that does not fit the schema is an error.
// The answer is typed by gSOAP (an int, the o__Status enum, a time_t, a decimal, a vector of
// o__Line); with `fault`, the call must fail with a SOAP fault, read with its declared detail
// (o__notFound) when there is one. Prints `ok ...` a call, or exits 1.
#include "soapOrdersProxy.h"
#include "Orders.nsmap"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <ctime>
#include <string>
#include <vector>

static std::string show(const o__Order &o) {
  char placed[32];
  std::strftime(placed, sizeof placed, "%Y-%m-%d", std::gmtime(&o.placed));
  const char *status = o.status == o__Status__open ? "open" : o.status == o__Status__shipped ? "shipped" : NULL;
  if (status == NULL) { std::printf("status %d\n", (int)o.status); std::exit(1); }
  for (size_t i = 0; i < o.line.size(); i++)
    if (o.line[i] == NULL) { std::printf("a null line\n"); std::exit(1); }
  return std::to_string(o.id) + " " + status + " " + placed + " " + o.total + " lines=" + std::to_string(o.line.size());
}

static int call(const std::vector<const char *> &args) {
  OrdersProxy proxy(SOAP_XML_STRICT | SOAP_C_UTFSTRING);
  const char *endpoint = args[0];
  bool want_fault = false;
  for (size_t i = 1; i < args.size(); i++) want_fault = want_fault || std::strcmp(args[i], "fault") == 0;
  int rc;
  std::string said;
  if (std::strcmp(args[1], "list") == 0) {
    _o__listOrders req;
    req.status = std::strcmp(args[2], "open") == 0 ? o__Status__open : o__Status__shipped;
    if (soap_s2dateTime(proxy.soap, args[3], &req.since)) { std::printf("bad date %s\n", args[3]); return 1; }
    o__listOrdersResponse res;
    rc = proxy.listOrders(endpoint, NULL, &req, res);
    if (rc == SOAP_OK) {
      said = "ok " + std::to_string(res.order.size());
      for (size_t i = 0; i < res.order.size(); i++) {
        if (res.order[i] == NULL) { std::printf("a null order\n"); return 1; }
        std::string one = show(*res.order[i]);
        if (i == 0) said += " " + one;
      }
    }
  } else {
    _o__getOrder req;
    req.id = std::atoi(args[2]);
    o__Order res;
    rc = proxy.getOrder(endpoint, NULL, &req, res);
    if (rc == SOAP_OK) said = "ok " + show(res);
  }
  if (rc == SOAP_OK && want_fault) { std::printf("expected a SOAP fault, got %s\n", said.c_str()); return 1; }
  if (rc == SOAP_OK) { std::printf("%s\n", said.c_str()); return 0; }
  int e = proxy.soap->error;
  if (!want_fault || (e != SOAP_FAULT && e != SOAP_CLI_FAULT && e != SOAP_SVR_FAULT)) { proxy.soap_stream_fault(std::cout); return 1; }
  const char *code = *soap_faultcode(proxy.soap);
  SOAP_ENV__Detail *detail = proxy.soap->fault->detail;
  if (detail != NULL && detail->o__notFound_ != NULL)
    std::printf("ok fault %s notFound %d\n", code, detail->o__notFound_->id);
  else
    std::printf("ok fault %s\n", code);
  return 0;
}

int main(int argc, char **argv) {
  std::vector<const char *> args;
  for (int i = 1; i <= argc; i++) {
    if (i == argc || std::strcmp(argv[i], "--") == 0) {
      if (!args.empty() && call(args) != 0) return 1;
      args.clear();
    } else {
      args.push_back(argv[i]);
    }
  }
  return 0;
}
