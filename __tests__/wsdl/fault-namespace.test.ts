import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { validateMessage } from '../../src/validate';

/**
 * An rpc/encoded fault whose part is typed with `type=` and whose `soap:fault` has a `namespace`,
 * as Apache Axis 1.4 writes every declared fault: the detail entry is the part's name in that
 * namespace (SOAP 1.1 4.4: a detail entry is namespace-qualified; WSDL 1.1 3.6: soap:fault's
 * namespace is used as soap:body's). Axis sends `<ns1:NotFound xmlns:ns1="urn:orders">` and its
 * client (WSDL2Java's FaultDesc) reads only that name into the declared exception; accord wrote
 * an unqualified `<NotFound>`, so a stub's fault reached Axis's client as a generic AxisFault
 * (issue 38; __tests__/interop/axis.test.ts has the real one).
 */
const WSDL = `<?xml version="1.0"?>
<wsdl:definitions targetNamespace="urn:orders" xmlns:impl="urn:orders" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"
    xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:wsdlsoap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema">
 <wsdl:types><schema targetNamespace="urn:orders" xmlns="http://www.w3.org/2001/XMLSchema">
   <import namespace="http://schemas.xmlsoap.org/soap/encoding/"/>
   <complexType name="NotFound"><sequence><element name="id" type="xsd:int"/></sequence></complexType>
 </schema></wsdl:types>
 <wsdl:message name="getOrderRequest"><wsdl:part name="id" type="xsd:int"/></wsdl:message>
 <wsdl:message name="getOrderResponse"><wsdl:part name="total" type="xsd:int"/></wsdl:message>
 <wsdl:message name="NotFoundMsg"><wsdl:part name="NotFound" type="impl:NotFound"/></wsdl:message>
 <wsdl:message name="BusyMsg"><wsdl:part name="busy" type="xsd:string"/></wsdl:message>
 <wsdl:portType name="Orders"><wsdl:operation name="getOrder">
   <wsdl:input message="impl:getOrderRequest"/><wsdl:output message="impl:getOrderResponse"/>
   <wsdl:fault message="impl:NotFoundMsg" name="NotFoundFault"/><wsdl:fault message="impl:BusyMsg" name="busy"/>
 </wsdl:operation></wsdl:portType>
 <wsdl:binding name="OrdersSoapBinding" type="impl:Orders">
  <wsdlsoap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
  <wsdl:operation name="getOrder"><wsdlsoap:operation soapAction=""/>
   <wsdl:input><wsdlsoap:body encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" namespace="urn:orders" use="encoded"/></wsdl:input>
   <wsdl:output><wsdlsoap:body encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" namespace="urn:orders" use="encoded"/></wsdl:output>
   <wsdl:fault name="NotFoundFault"><wsdlsoap:fault encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" name="NotFoundFault" namespace="urn:orders:faults" use="encoded"/></wsdl:fault>
   <wsdl:fault name="busy"><wsdlsoap:fault encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" name="busy" use="encoded"/></wsdl:fault>
  </wsdl:operation>
 </wsdl:binding>
 <wsdl:service name="OrdersService"><wsdl:port binding="impl:OrdersSoapBinding" name="Orders"><wsdlsoap:address location="http://localhost/axis/services/Orders"/></wsdl:port></wsdl:service>
</wsdl:definitions>`;

/** Axis 1.4's answer to a NotFound (its stackTrace shortened), its detail entry in namespace `ns`. */
const axisFault = (ns: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body><soapenv:Fault><faultcode>soapenv:Server.userException</faultcode><faultstring>NotFound: no such order</faultstring><detail><ns1:NotFound xsi:type="ns2:NotFound" xmlns:ns1="${ns}" xmlns:ns2="urn:orders"><id xsi:type="xsd:int">404</id></ns1:NotFound><ns2:stackTrace xmlns:ns2="http://xml.apache.org/axis/">NotFound: no such order
	at OrdersService.getOrder(OrdersService.java:7)</ns2:stackTrace><ns3:hostname xmlns:ns3="http://xml.apache.org/axis/">vm</ns3:hostname></detail></soapenv:Fault></soapenv:Body></soapenv:Envelope>`;

describe("an encoded fault part in the soap:fault's namespace", () => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'accord-fault-ns-'));
    file = path.join(dir, 'orders.wsdl');
    writeFileSync(file, WSDL);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("the detail entry is the part's name qualified by the soap:fault namespace; without one it stays unqualified", () => {
    const { text } = importWsdl(file);
    // SOAP encoding: the struct carries its xsi:type too (as Axis and PHP write it).
    expect(text).toMatch(/<detail>\n\s+<(\w+):NotFound specmatic_type="NotFound" specmatic_xsi_type="\w+:NotFound"\/>/);
    const prefix = /<detail>\n\s+<(\w+):NotFound/.exec(text)![1];
    expect(text).toContain(`xmlns:${prefix}="urn:orders:faults"`);
    expect(text).toMatch(/<detail>\n\s+<busy>\(string\)<\/busy>/);
    // And Axis's own fault fits it (elements are matched by local name, as everywhere in accord).
    const fits = validateMessage(parseContract(text, 'orders.spec'), axisFault('urn:orders:faults'), { response: true, operation: 'getOrder fault NotFoundFault' });
    expect(fits.fits.map((s) => s.name)).toEqual(['getOrder fault NotFoundFault']);
  });

  test('a stub answers the fault with the qualified detail entry', async () => {
    const stub = await startStub({ contracts: [file], port: 0, log: () => undefined });
    try {
      const path_ = '/axis/services/Orders';
      const request = `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><o:getOrder xmlns:o="urn:orders"><id>404</id></o:getOrder></s:Body></s:Envelope>`;
      const set = await fetch(`${stub.url}/_accord/expectations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ request: { method: 'POST', path: path_, body: request }, fault: 'soap-fault', faultName: 'NotFoundFault' }),
      });
      expect(set.status).toBe(201);
      await set.text();
      const res = await fetch(`${stub.url}${path_}`, { method: 'POST', headers: { 'content-type': 'text/xml', soapaction: '""' }, body: request });
      const body = await res.text();
      expect(res.status).toBe(500);
      const m = /<detail><(\w+):NotFound(?: [^>]*)?>/.exec(body);
      expect([m !== null, body]).toEqual([true, body]);
      expect(body).toContain(`xmlns:${m![1]}="urn:orders:faults"`);
    } finally {
      await stub.close();
    }
  });
});
