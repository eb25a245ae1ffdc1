import { corpusWsdl, withCorpus } from '../helpers/corpus';
import { wsdlFixture as fixture } from './fixtures';
import { failures, host, runAll } from '../helpers/soap-host';

/**
 * An independent SOAP implementation (the `soap` package) hosts a service from
 * the same WSDL; the contract imported from it must pass against that service.
 * This checks the generated envelopes against real SOAP rules, which a round
 * trip through accord's own stub cannot.
 */
const num = (v: unknown) => Number(v);
const MSDATA = 'xmlns:msdata="urn:schemas-microsoft-com:xml-msdata"';
const DIFFGR = 'xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"';
const tableSchema = (columns: string) =>
  `<xs:schema id="NewDataSet" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" ${MSDATA}><xs:element name="NewDataSet" msdata:IsDataSet="true" msdata:UseCurrentLocale="true">` +
  `<xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded">${columns}</xs:choice></xs:complexType></xs:element></xs:schema>`;
const DATASET =
  tableSchema('<xs:element name="Table"><xs:complexType><xs:sequence><xs:element name="Name" type="xs:string" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>') +
  `<diffgr:diffgram ${MSDATA} ${DIFFGR}><NewDataSet xmlns=""><Table diffgr:id="Table1" msdata:rowOrder="0"><Name>Rex</Name></Table></NewDataSet></diffgr:diffgram>`;
const EMPTY_DATASET = `${tableSchema('')}<diffgr:diffgram ${MSDATA} ${DIFFGR}/>`;
const calculator = {
  Add: (a: { intA: string; intB: string }) => ({ AddResult: num(a.intA) + num(a.intB) }),
  Subtract: (a: { intA: string; intB: string }) => ({ SubtractResult: num(a.intA) - num(a.intB) }),
  Multiply: (a: { intA: string; intB: string }) => ({ MultiplyResult: num(a.intA) * num(a.intB) }),
  Divide: (a: { intA: string; intB: string }) => ({ DivideResult: Math.trunc(num(a.intA) / num(a.intB)) }),
};

describe('a real SOAP service (the soap package) passes the contract imported from a repository WSDL', () => {
  test('rpc/encoded HelloService without <types> (wrapper with encodingStyle, SOAPAction)', async () => {
    const file = fixture('rpc-encoded/hello.wsdl');
    const hosted = await host(file, '/SayHello/', { Hello_Service: { Hello_Port: { sayHello: (a: { firstName: string }) => ({ greeting: `Hello ${a.firstName}` }) } } });
    try {
      const results = await runAll(file, hosted);
      expect(failures(results, hosted.url)).toEqual([]);
      expect(hosted.requests[0].body).toMatch(
        /<tns:sayHello [^>]*soapenv:encodingStyle="http:\/\/schemas.xmlsoap.org\/soap\/encoding\/"><firstName xsi:type="xsd:string">[^<]+<\/firstName><\/tns:sayHello>/,
      );
      expect(hosted.requests[0].headers.soapaction).toMatch(/^"?sayHello"?$/);
    } finally {
      await hosted.close();
    }
  });

  test('rpc/literal greeter (wrapper named after the operation, parts as unqualified children, a part-less input, a header part)', async () => {
    const file = fixture('rpc-literal/greeter.wsdl');
    const hosted = await host(
      file,
      '/rpclit/greeter',
      {
        GreeterService: {
          GreeterPort: {
            sayHi: () => ({ out: 'Hi' }),
            greetMe: (a: { in: string }) => ({ out: `Hello ${a.in}` }),
            sendData: (a: { in: unknown }) => ({ out: a.in }),
            traced: () => ({ out: true }),
          },
        },
      },
      (method) => (method === 'traced' ? '<h:trace xmlns:h="urn:accord:rpclit:headers"><h:id>t-1</h:id></h:trace>' : ''),
    );
    try {
      const results = await runAll(file, hosted);
      expect(failures(results, hosted.url)).toEqual([]);
      expect(results).toHaveLength(4);
      const greet = hosted.requests.find((r) => r.body.includes('greetMe'))!;
      expect(greet.body).toMatch(/<tns:greetMe><in>[^<]+<\/in><\/tns:greetMe>/);
    } finally {
      await hosted.close();
    }
  });

  test('SOAP 1.1 and 1.2 ports beside a 1.2-only port type (SOAPAction for 1.1, action in Content-Type for 1.2)', async () => {
    const file = fixture('services/multi.wsdl');
    const search = {
      // A hit is of the abstract type Animal: a valid one names its derived type, as .NET sends it (xsi:type="Dog").
      search: (a: { term: string }) => ({
        hit: [{ attributes: { xsi_type: { type: 'Dog', xmlns: 'urn:accord:multi' } }, name: a.term, breed: 'collie' }],
        summary: { em: ['x'] },
        // A .NET DataSet as asmx services send it: the table's schema, then a diffgram with its rows (raw XML).
        table: { $xml: DATASET },
      }),
      ping: () => ({ at: '2024-02-29T10:00:00Z' }),
    };
    const hosted = await host(file, '/multi/search.asmx', { SearchService: { SearchSoap: search, SearchSoap12: search } });
    try {
      const results = await runAll(file, hosted);
      // The soap package serves one path; the 1.2-only Admin port lives at another, which it does not serve.
      const searchResults = results.filter((r) => r.testCase.name === 'search' || r.testCase.name === 'Search ping');
      expect(failures(searchResults, hosted.url)).toEqual([]);
      expect(searchResults).toHaveLength(2);
      for (const r of hosted.requests.filter((q) => q.body.includes('schemas.xmlsoap.org/soap/envelope')))
        expect(r.headers.soapaction).toMatch(/^"?urn:accord:multi\/(search|ping)"?$/);
    } finally {
      await hosted.close();
    }
  });

  test('the same service, SOAP 1.2 chosen (1.2 envelope, action in Content-Type, no SOAPAction)', async () => {
    const file = fixture('services/multi.wsdl');
    const search = { search: () => ({ summary: {}, table: { $xml: EMPTY_DATASET } }), ping: () => ({ at: '2024-02-29T10:00:00Z' }) };
    const hosted = await host(file, '/multi/search.asmx', { SearchService: { SearchSoap: search, SearchSoap12: search } });
    try {
      const results = (await runAll(file, hosted, { soapVersion: '1.2' })).filter((r) => r.testCase.name === 'search' || r.testCase.name === 'Search ping');
      expect(failures(results, hosted.url)).toEqual([]);
      const sent = hosted.requests.filter((r) => !/action="[^"]*Admin/.test(String(r.headers['content-type'])));
      expect(sent).toHaveLength(2);
      for (const r of sent) {
        expect(r.headers.soapaction).toBeUndefined();
        expect(r.headers['content-type']).toMatch(/^application\/soap\+xml; charset=utf-8; action="urn:accord:multi\/(search|ping)"$/);
        expect(r.body).toContain('xmlns:soapenv="http://www.w3.org/2003/05/soap-envelope"');
      }
    } finally {
      await hosted.close();
    }
  });
});

withCorpus('wsdl-corpus', 'a real SOAP service (the soap package) passes the contract imported from a corpus WSDL', () => {
  test('ASMX calculator, SOAP 1.1 (SOAPAction header, 1.1 envelope)', async () => {
    const file = corpusWsdl('asmx-calculator');
    const hosted = await host(file, '/calculator.asmx', { Calculator: { CalculatorSoap: calculator, CalculatorSoap12: calculator } });
    try {
      const results = await runAll(file, hosted);
      expect(failures(results, hosted.url)).toEqual([]);
      expect(results).toHaveLength(4);
      expect(hosted.requests).toHaveLength(4);
      for (const r of hosted.requests) {
        expect(r.headers.soapaction).toMatch(/^"?http:\/\/tempuri\.org\/(Add|Subtract|Multiply|Divide)"?$/);
        expect(r.headers['content-type']).toMatch(/^text\/xml/);
        expect(r.body).toContain('xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"');
      }
    } finally {
      await hosted.close();
    }
  });

  test('ASMX calculator, SOAP 1.2 chosen (1.2 envelope, action in Content-Type, no SOAPAction)', async () => {
    const file = corpusWsdl('asmx-calculator');
    // The soap package dispatches both ports' requests by path; it answers with its first port's envelope, which matching accepts (namespaces are not compared).
    const hosted = await host(file, '/calculator.asmx', { Calculator: { CalculatorSoap: calculator, CalculatorSoap12: calculator } });
    try {
      const results = await runAll(file, hosted, { soapVersion: '1.2' });
      expect(failures(results, hosted.url)).toEqual([]);
      expect(hosted.requests).toHaveLength(4);
      for (const r of hosted.requests) {
        expect(r.headers.soapaction).toBeUndefined();
        expect(r.headers['content-type']).toMatch(/^application\/soap\+xml; charset=utf-8; action="http:\/\/tempuri\.org\/\w+"$/);
        expect(r.body).toContain('xmlns:soapenv="http://www.w3.org/2003/05/soap-envelope"');
      }
    } finally {
      await hosted.close();
    }
  });

  test('CXF customer service (document/literal, one-way operation, enumeration, list of customers)', async () => {
    const file = corpusWsdl('cxf-customerservice');
    const updated: unknown[] = [];
    const hosted = await host(file, '/CustomerServicePort', {
      CustomerServiceService: {
        CustomerServicePort: {
          updateCustomer: (a: unknown) => {
            updated.push(a);
          },
          getCustomersByName: (a: { name?: string }) => ({
            return: [
              { customerId: 1, name: a.name ?? 'Smith', address: ['1 Main St', '2 High St'], numOrders: 3, revenue: 1234.5, test: 1.5, birthDate: '1980-02-03', type: 'BUSINESS' },
              { customerId: 2, name: 'Jones', address: [], numOrders: 0, revenue: 0, test: 0, birthDate: '1990-12-31', type: 'PRIVATE' },
            ],
          }),
        },
      },
    });
    try {
      const results = await runAll(file, hosted);
      expect(failures(results, hosted.url)).toEqual([]);
      expect(results.map((r) => r.testCase.name)).toEqual(['updateCustomer', 'getCustomersByName']);
      expect(updated).toHaveLength(1);
      // The enumeration is sent with one of its values, never a random string.
      const update = hosted.requests.find((r) => r.body.includes('updateCustomer'))!;
      const type = /<type>([^<]*)<\/type>/.exec(update.body);
      if (type) expect(['PRIVATE', 'BUSINESS']).toContain(type[1]);
    } finally {
      await hosted.close();
    }
  });

  test('CXF rpc/literal greeter (wrapper named after the operation, parts as unqualified children)', async () => {
    const file = corpusWsdl('cxf-rpclit');
    const hosted = await host(file, '/SoapContext/SoapPort', {
      SOAPServiceRPCLit: {
        SoapPortRPCLit: {
          sayHi: () => ({ out: 'Hi' }),
          greetMe: (a: { in: string }) => ({ out: `Hello ${a.in}` }),
          sendReceiveData: (a: { in: unknown }) => ({ out: a.in }),
        },
      },
    });
    try {
      const results = await runAll(file, hosted);
      expect(failures(results, hosted.url)).toEqual([]);
      expect(results).toHaveLength(3);
      const greet = hosted.requests.find((r) => r.body.includes('greetMe'))!;
      expect(greet.body).toMatch(/<tns:greetMe><in>[^<]+<\/in><\/tns:greetMe>/);
    } finally {
      await hosted.close();
    }
  });

  test('CXF SOAP 1.2 greeter (SOAP 1.2 only: 1.2 envelope, one-way operation, fault declared)', async () => {
    const file = corpusWsdl('cxf-soap12');
    const hosted = await host(file, '/SoapContext/SoapPort', {
      SOAPService: {
        SoapPort: {
          sayHi: () => ({ responseType: 'Hi' }),
          greetMe: (a: { requestType: string }) => ({ responseType: `Hello ${a.requestType}` }),
          greetMeOneWay: () => undefined,
          pingMe: () => ({}),
        },
      },
    });
    try {
      const results = await runAll(file, hosted);
      expect(failures(results, hosted.url)).toEqual([]);
      expect(results).toHaveLength(4);
      for (const r of hosted.requests) {
        expect(r.body).toContain('xmlns:soapenv="http://www.w3.org/2003/05/soap-envelope"');
        expect(r.headers.soapaction).toBeUndefined();
        expect(r.headers['content-type']).toMatch(/^application\/soap\+xml/);
      }
    } finally {
      await hosted.close();
    }
  });

  test('node-soap HelloService (rpc/encoded, parts typed with type=)', async () => {
    const file = corpusWsdl('node-soap-hello-rpc');
    const hosted = await host(file, '/SayHello/', { Hello_Service: { Hello_Port: { sayHello: (a: { firstName: string }) => ({ greeting: `Hello ${a.firstName}` }) } } });
    try {
      const results = await runAll(file, hosted);
      expect(failures(results, hosted.url)).toEqual([]);
      // SOAP encoding: the wrapper starts the scope, the accessor carries its xsi:type (suds and SOAP::Lite type by it).
      expect(hosted.requests[0].body).toMatch(
        /<ns1:sayHello [^>]*soapenv:encodingStyle="http:\/\/schemas.xmlsoap.org\/soap\/encoding\/"><firstName xsi:type="xsd:string">[^<]+<\/firstName><\/ns1:sayHello>/,
      );
      expect(hosted.requests[0].headers.soapaction).toMatch(/^"?sayHello"?$/);
    } finally {
      await hosted.close();
    }
  });
});
