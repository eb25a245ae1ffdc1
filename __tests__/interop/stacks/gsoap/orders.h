// The Orders service as gSOAP writes it, code first: soapcpp2 reads this header and writes the
// WSDL (Orders.wsdl), the schema and the C++ serializers; orders_server.cpp implements it.
// document/literal, elementFormDefault qualified; getOrder declares the fault notFound.

//gsoap ns service name: Orders
//gsoap ns service namespace: urn:accord:interop:orders
//gsoap ns service location: http://127.0.0.1/orders
//gsoap ns service style: document
//gsoap ns service encoding: literal
//gsoap ns schema namespace: urn:accord:interop:orders
//gsoap ns schema form: qualified
//gsoap ns service method-action: getOrder "urn:accord:interop:orders#getOrder"
//gsoap ns service method-action: listOrders "urn:accord:interop:orders#listOrders"
//gsoap ns service method-fault: getOrder ns__notFound

#import "stlvector.h"

typedef std::string xsd__decimal;

enum ns__Status { ns__Status__open, ns__Status__shipped };

class ns__Line {
 public:
  std::string sku;
  int quantity;
};

class ns__Order {
 public:
  int id;
  enum ns__Status status;
  time_t placed;
  xsd__decimal total;
  std::vector<ns__Line> line;
  std::string *note;
};

// The fault's detail: <notFound><id>…</id></notFound>.
class _ns__notFound {
 public:
  int id;
};

struct SOAP_ENV__Detail {
  _ns__notFound *ns__notFound;
  int __type;
  void *fault;
  char *__any;
};

class ns__listOrdersResponse {
 public:
  std::vector<ns__Order> order;
};

int ns__getOrder(int id, ns__Order &order);
int ns__listOrders(enum ns__Status status, time_t since, ns__listOrdersResponse &response);
