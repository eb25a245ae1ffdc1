import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';

/**
 * An example file whose request is SOAP-encoded with multi-reference values, as Apache Axis 1.4's
 * client sends every rpc/encoded parameter (`<id href="#id0"/>` and a Body-level
 * `<multiRef id="id0">7</multiRef>`), and as `accord proxy` records it. The stub reads the
 * example's values from the tree the references stand for, as it reads the requests it matches:
 * read from the document as written (an `href`, a `multiRef` holding 7), the example was compared
 * as written and never answered, not even the very request it was recorded from (issue 38).
 */
const ENC = 'http://schemas.xmlsoap.org/soap/encoding/';
const WSDL = `<?xml version="1.0"?>
<wsdl:definitions targetNamespace="urn:orders" xmlns:impl="urn:orders" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:wsdlsoap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema">
 <wsdl:message name="getOrderRequest"><wsdl:part name="id" type="xsd:int"/></wsdl:message>
 <wsdl:message name="getOrderResponse"><wsdl:part name="total" type="xsd:int"/></wsdl:message>
 <wsdl:portType name="Orders"><wsdl:operation name="getOrder"><wsdl:input message="impl:getOrderRequest"/><wsdl:output message="impl:getOrderResponse"/></wsdl:operation></wsdl:portType>
 <wsdl:binding name="OrdersSoapBinding" type="impl:Orders">
  <wsdlsoap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
  <wsdl:operation name="getOrder"><wsdlsoap:operation soapAction=""/>
   <wsdl:input><wsdlsoap:body encodingStyle="${ENC}" namespace="urn:orders" use="encoded"/></wsdl:input>
   <wsdl:output><wsdlsoap:body encodingStyle="${ENC}" namespace="urn:orders" use="encoded"/></wsdl:output>
  </wsdl:operation>
 </wsdl:binding>
 <wsdl:service name="OrdersService"><wsdl:port binding="impl:OrdersSoapBinding" name="Orders"><wsdlsoap:address location="http://localhost/axis/services/Orders"/></wsdl:port></wsdl:service>
</wsdl:definitions>`;

/** Axis 1.4's getOrder request, as its client sends it: the int as a multiRef. */
const axisRequest = (id: number) =>
  `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body><ns1:getOrder soapenv:encodingStyle="${ENC}" xmlns:ns1="urn:orders"><id href="#id0"/></ns1:getOrder><multiRef id="id0" soapenc:root="0" soapenv:encodingStyle="${ENC}" xsi:type="xsd:int" xmlns:soapenc="${ENC}">${id}</multiRef></soapenv:Body></soapenv:Envelope>`;
const plainRequest = (id: number) =>
  `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><ns1:getOrder xmlns:ns1="urn:orders"><id>${id}</id></ns1:getOrder></soapenv:Body></soapenv:Envelope>`;
const answer = (total: number) =>
  `<?xml version="1.0" encoding="utf-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body><ns1:getOrderResponse soapenv:encodingStyle="${ENC}" xmlns:ns1="urn:orders"><total href="#id0"/></ns1:getOrderResponse><multiRef id="id0" soapenc:root="0" soapenv:encodingStyle="${ENC}" xsi:type="xsd:int" xmlns:soapenc="${ENC}">${total}</multiRef></soapenv:Body></soapenv:Envelope>`;

describe('an example file of a multi-reference (Axis) request', () => {
  let dir: string;
  let stub: RunningStub;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'accord-example-multiref-'));
    writeFileSync(path.join(dir, 'orders.wsdl'), WSDL);
    writeFileSync(path.join(dir, 'orders.spec'), importWsdl(path.join(dir, 'orders.wsdl')).text);
    mkdirSync(path.join(dir, 'orders_examples'));
    const example = {
      'http-request': { method: 'POST', path: '/axis/services/Orders', headers: { SOAPAction: '""', 'Content-Type': 'text/xml; charset=utf-8' }, body: axisRequest(7) },
      'http-response': { status: 200, headers: { 'Content-Type': 'text/xml; charset=utf-8' }, body: answer(4242) },
    };
    writeFileSync(path.join(dir, 'orders_examples', '0001-GetOrder-200.json'), JSON.stringify(example, null, 2));
    stub = await startStub({ contracts: [path.join(dir, 'orders.spec')], port: 0, log: () => undefined });
  });
  afterAll(async () => {
    await stub?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = async (body: string) => {
    const res = await fetch(`${stub.url}/axis/services/Orders`, { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' }, body });
    return { status: res.status, body: await res.text() };
  };

  test('answers the request it was recorded from, and the same values sent without references, with its answer', async () => {
    for (const body of [axisRequest(7), plainRequest(7)]) {
      const r = await post(body);
      expect([r.status, r.body]).toEqual([200, expect.stringContaining('>4242</multiRef>')]);
    }
  });

  test('answers another id from the types, not with its answer', async () => {
    for (const body of [axisRequest(8), plainRequest(8)]) {
      const r = await post(body);
      expect(r.status).toBe(200);
      expect(r.body).not.toContain('4242');
      expect(r.body).toContain('getOrderResponse');
    }
  });
});
