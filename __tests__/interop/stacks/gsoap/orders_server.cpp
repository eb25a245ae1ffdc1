// The gSOAP Orders server: `orders_server <Orders.wsdl>` listens on 127.0.0.1 (a free port, printed
// on a line of its own), strict (SOAP_XML_STRICT: a request must fit the schema, unknown or missing
// elements are refused), and answers GET <path>?wsdl with the WSDL soapcpp2 wrote for orders.h, its
// address set to this port. Built by g++ with the files soapcpp2 writes (soapC.cpp, soapServer.cpp).
#include "soapH.h"
#include "Orders.nsmap"
#include <arpa/inet.h>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

static std::string wsdl;

static int http_get(struct soap *soap) {
  const char *q = std::strchr(soap->path, '?');
  if (q == NULL || std::strcmp(q, "?wsdl") != 0) return 404;
  soap->http_content = "text/xml; charset=utf-8";
  if (soap_response(soap, SOAP_FILE) || soap_send_raw(soap, wsdl.data(), wsdl.size()) || soap_end_send(soap)) return soap_closesock(soap);
  return SOAP_OK;
}

int main(int argc, char **argv) {
  if (argc < 2) { std::fprintf(stderr, "usage: orders_server <Orders.wsdl>\n"); return 2; }
  struct soap *soap = soap_new1(SOAP_XML_STRICT | SOAP_C_UTFSTRING);
  soap->bind_flags = SO_REUSEADDR;
  if (!soap_valid_socket(soap_bind(soap, "127.0.0.1", 0, 64))) { soap_print_fault(soap, stderr); return 1; }
  struct sockaddr_in addr;
  socklen_t len = sizeof addr;
  getsockname(soap->master, (struct sockaddr *)&addr, &len);
  int port = ntohs(addr.sin_port);
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  wsdl = text.str();
  const std::string from = "http://127.0.0.1/orders", to = "http://127.0.0.1:" + std::to_string(port) + "/orders";
  for (size_t at = wsdl.find(from); at != std::string::npos; at = wsdl.find(from, at + to.size())) wsdl.replace(at, from.size(), to);
  soap->fget = http_get;
  std::printf("%d\n", port);
  std::fflush(stdout);
  for (;;) {
    if (!soap_valid_socket(soap_accept(soap))) continue;
    soap_serve(soap);
    soap_destroy(soap);
    soap_end(soap);
  }
}

int ns__getOrder(struct soap *soap, int id, ns__Order &order) {
  if (id == 404) {
    soap_sender_fault(soap, "no such order", NULL);
    SOAP_ENV__Detail *detail = soap_new_SOAP_ENV__Detail(soap);
    detail->ns__notFound = soap_new__ns__notFound(soap);
    detail->ns__notFound->id = id;
    // The detail of a SOAP 1.1 fault, or of a 1.2 one (gSOAP answers the version it was asked in).
    if (soap->version == 2) soap->fault->SOAP_ENV__Detail = detail;
    else soap->fault->detail = detail;
    return SOAP_FAULT;
  }
  order.id = id;
  order.status = ns__Status__shipped;
  order.placed = 1715941800;  // 2024-05-17T10:30:00Z
  order.total = "12.50";
  ns__Line a, b;
  a.sku = "A-1";
  a.quantity = 2;
  b.sku = "B-2";
  b.quantity = 1;
  order.line.push_back(a);
  order.line.push_back(b);
  order.note = NULL;
  return SOAP_OK;
}

int ns__listOrders(struct soap *soap, enum ns__Status status, time_t since, ns__listOrdersResponse &response) {
  ns__Order order;
  ns__getOrder(soap, 7, order);
  order.status = status;
  order.placed = since;
  response.order.push_back(order);
  return SOAP_OK;
}
