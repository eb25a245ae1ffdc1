import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { caseTitle, parseContract, testCases } from '../../src/contract/load';
import { FAULT_WITHOUT_EXAMPLE, isFaultScenario } from '../../src/contract/model';
import { runCase } from '../../src/runner/run-case';
import { transformSpec } from '../../src/runner/transform';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { WSDL_FIXTURES, withFaultRows } from './fixtures';

/**
 * `wsdl:fault` as fault scenarios (issue 13): the importer writes one per fault, the stub answers it
 * only for its own examples, the runner runs it only with an Examples row.
 */
const PETS = path.join(WSDL_FIXTURES, 'faults', 'pets.wsdl');
const NS11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const NS12 = 'http://www.w3.org/2003/05/soap-envelope';

const envelope = (ns: string, id: string) =>
  `<s:Envelope xmlns:s="${ns}"><s:Body><p:getPet xmlns:p="http://example.com/faults"><p:id>${id}</p:id></p:getPet></s:Body></s:Envelope>`;

const withRows = (text: string, rows: Record<string, string>) => withFaultRows(text, 'getPet', rows);

describe('import: one @fault scenario per wsdl:fault', () => {
  test('SOAP 1.1: the operation request, status 500, faultcode/faultstring typed, detail typed by the fault element', () => {
    const { text, summary } = importWsdl(PETS);
    expect(summary).toMatchObject({ operations: 1, faults: 2, scenarios: 3 });
    const c = parseContract(text, 'pets.spec');
    expect(c.scenarios.map((s) => [s.name, s.tags, s.response.status])).toEqual([
      ['getPet', [], 200],
      ['getPet fault notFound', ['@fault'], 500],
      ['getPet fault invalidId', ['@fault'], 500],
    ]);
    // The fault's request is the operation's own.
    const shape = (p: unknown) => JSON.stringify(p, (k, v: unknown) => (k === 'line' ? undefined : v));
    expect(shape(c.scenarios[1].scope.types.get('Request'))).toBe(shape(c.scenarios[0].scope.types.get('Request')));
    expect(text).toContain(
      [
        '    <soapenv:Fault>',
        '      <faultcode>(SoapFaultCode)</faultcode>',
        '      <faultstring xml:lang.opt="(language)">(string)</faultstring>',
        '      <faultactor specmatic_occurs="optional">(anyURI)</faultactor>',
        '      <detail>',
        '        <tns:petNotFound>',
        '          <tns:id>(int)</tns:id>',
        '          <tns:reason>(Reason)</tns:reason>',
        '        </tns:petNotFound>',
        '        <specmatic_any specmatic_occurs="multiple" processContents="lax"/>',
        '      </detail>',
        '    </soapenv:Fault>',
      ].join('\n'),
    );
    expect(text).toContain('enum Reason (string) values deleted,never-existed');
    expect(text).not.toMatch(/# fault notFound/);
  });

  test('SOAP 1.2: env:Code/Value, Reason/Text (xml:lang optional), optional Subcode, Node and Role, Detail', () => {
    const { text } = importWsdl(PETS, { soapVersion: '1.2' });
    expect(text).toContain(
      [
        '    <soapenv:Fault>',
        '      <soapenv:Code>',
        '        <soapenv:Value>(Soap12FaultCode)</soapenv:Value>',
        '        <soapenv:Subcode specmatic_occurs="optional">',
        '          <soapenv:Value>(qname)</soapenv:Value>',
        '        </soapenv:Subcode>',
        '      </soapenv:Code>',
        '      <soapenv:Reason>',
        '        <soapenv:Text xml:lang.opt="(language)">(string)</soapenv:Text>',
        '      </soapenv:Reason>',
        '      <soapenv:Node specmatic_occurs="optional">(anyURI)</soapenv:Node>',
        '      <soapenv:Role specmatic_occurs="optional">(anyURI)</soapenv:Role>',
        '      <soapenv:Detail>',
        '        <tns:invalidId>',
      ].join('\n'),
    );
    expect(text).toContain(`xmlns:soapenv="${NS12}"`);
    expect(
      parseContract(text, 'pets12.spec')
        .scenarios.filter(isFaultScenario)
        .map((s) => s.response.status),
    ).toEqual([500, 500]);
  });

  test('an rpc fault part typed with type= becomes an unqualified element named after the part; a fault without a message part has an optional detail', () => {
    const wsdl = `<?xml version="1.0"?>
<definitions name="Calc" targetNamespace="urn:calc" xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tns="urn:calc" xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <message name="DivIn"><part name="a" type="xsd:int"/><part name="b" type="xsd:int"/></message>
  <message name="DivOut"><part name="q" type="xsd:int"/></message>
  <message name="DivByZero"><part name="code" type="xsd:int"/></message>
  <message name="Empty"/>
  <portType name="CalcPort"><operation name="div"><input message="tns:DivIn"/><output message="tns:DivOut"/><fault name="divByZero" message="tns:DivByZero"/><fault name="busy" message="tns:Empty"/></operation></portType>
  <binding name="CalcBinding" type="tns:CalcPort"><soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="div"><soap:operation soapAction="urn:div"/><input><soap:body use="literal" namespace="urn:calc"/></input><output><soap:body use="literal" namespace="urn:calc"/></output>
      <fault name="divByZero"><soap:fault name="divByZero" use="literal"/></fault><fault name="busy"><soap:fault name="busy" use="literal"/></fault></operation></binding>
  <service name="Calc"><port name="CalcPort" binding="tns:CalcBinding"><soap:address location="http://localhost/calc"/></port></service>
</definitions>`;
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-faults-rpc-'));
    try {
      writeFileSync(path.join(dir, 'calc.wsdl'), wsdl);
      const { text } = importWsdl(path.join(dir, 'calc.wsdl'));
      expect(text).toContain('      <detail>\n        <code>(int)</code>\n        <specmatic_any specmatic_occurs="multiple" processContents="lax"/>\n      </detail>');
      expect(text).toContain('      <detail specmatic_occurs="optional">(anything)</detail>');
      expect(parseContract(text, 'calc.spec').scenarios.map((s) => s.name)).toEqual(['div', 'div fault divByZero', 'div fault busy']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('runner: a fault scenario runs only with an Examples row', () => {
  test('without rows it is declared skipped, named with the reason; with a row it is a test like any other', () => {
    const { text } = importWsdl(PETS);
    const plain = testCases(parseContract(text, 'pets.spec'));
    expect(plain.map((t) => t.notRun)).toEqual([undefined, FAULT_WITHOUT_EXAMPLE, FAULT_WITHOUT_EXAMPLE]);
    const code = transformSpec(text, '/app/pets.spec', '/runtime.js');
    expect(code).toContain(`test.skip(${JSON.stringify(`getPet fault notFound (not run: ${FAULT_WITHOUT_EXAMPLE})`)}, () => {});`);
    expect(code.match(/ test\(/g)).toHaveLength(1);

    const rows = withRows(text, { notFound: '      | id  |\n      | 404 |' });
    const cases = testCases(parseContract(rows, 'pets.spec'));
    expect(cases.map((t) => t.notRun)).toEqual([undefined, undefined, FAULT_WITHOUT_EXAMPLE]);
    expect(caseTitle(cases[1])).toBe('getPet fault notFound - example 1: id=404');
    expect(transformSpec(rows, '/app/pets.spec', '/runtime.js').match(/ test\(/g)).toHaveLength(2);
  });
});

describe('stub: a fault scenario answers only its own examples', () => {
  let dir: string;
  let stub: RunningStub;
  let spec: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'accord-faults-stub-'));
    spec = path.join(dir, 'pets.spec');
    const text = withRows(importWsdl(PETS).text, { notFound: '      | id  | faultstring   |\n      | 404 | no such pet   |', invalidId: '      | id |\n      | -1 |' });
    writeFileSync(spec, text);
    // An example file for the notFound fault, in Specmatic's layout beside the contract.
    mkdirSync(path.join(dir, 'pets_examples'));
    writeFileSync(
      path.join(dir, 'pets_examples', 'gone.json'),
      JSON.stringify({
        'http-request': { method: 'POST', path: '/pets', headers: { SOAPAction: '"urn:getPet"' }, body: envelope(NS11, '410') },
        'http-response': {
          status: 500,
          body: `<s:Envelope xmlns:s="${NS11}"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>gone</faultstring><detail><p:petNotFound xmlns:p="http://example.com/faults"><p:id>410</p:id><p:reason>deleted</p:reason></p:petNotFound></detail></s:Fault></s:Body></s:Envelope>`,
        },
      }),
    );
    stub = await startStub({ contracts: spec, port: 0, log: () => undefined });
  });
  afterAll(async () => {
    await stub?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (id: string) => fetch(`${stub.url}/pets`, { method: 'POST', headers: { 'content-type': 'text/xml', soapaction: '"urn:getPet"' }, body: envelope(NS11, id) });

  test('an ordinary request gets the operation answer, never a fault', async () => {
    for (const id of ['7', '8', '405']) {
      const r = await post(id);
      expect(r.status).toBe(200);
      expect(await r.text()).toMatch(/<tns:getPetResponse>/);
    }
  });

  test('an Examples row answers its fault: status 500, the Fault envelope, the row values, a typed detail', async () => {
    const r = await post('404');
    expect(r.status).toBe(500);
    const body = await r.text();
    expect(body).toMatch(/<soapenv:Body><soapenv:Fault><faultcode>[^<]+<\/faultcode><faultstring( xml:lang="[^"]+")?>no such pet<\/faultstring>/);
    expect(body).toMatch(/<detail><tns:petNotFound><tns:id>404<\/tns:id><tns:reason>(deleted|never-existed)<\/tns:reason><\/tns:petNotFound><\/detail>/);
    const other = await (await post('-1')).text();
    expect(other).toMatch(/<detail><tns:invalidId><tns:value>-?\d+<\/tns:value><\/tns:invalidId><\/detail>/);
    expect(stub.calls().map((c) => c.answeredBy)).toContain('example');
  });

  test('an example file answers as given', async () => {
    const r = await post('410');
    expect(r.status).toBe(500);
    expect(await r.text()).toContain('<faultstring>gone</faultstring>');
  });

  test('a soap-fault expectation answers with the contract fault scenario', async () => {
    const e = stub.expect({ request: { method: 'POST', path: '/pets', headers: { SOAPAction: '"urn:getPet"' }, body: envelope(NS11, '12') }, fault: 'soap-fault', times: 1 });
    try {
      const r = await post('12');
      expect(r.status).toBe(500);
      expect(await r.text()).toMatch(/<detail><tns:petNotFound>/);
    } finally {
      e.remove();
    }
  });

  test("a request no scenario takes: the 400 report names the operation's scenario, not its faults", async () => {
    const r = await fetch(`${stub.url}/pets`, { method: 'POST', headers: { 'content-type': 'text/xml', soapaction: '"urn:getPet"' }, body: envelope(NS11, 'seven') });
    expect(r.status).toBe(400);
    const report = await r.text();
    expect(report).toContain('Scenario "getPet"');
    expect(report).not.toContain('getPet fault');
  });

  test('written before the operation scenario, a fault scenario still never answers an ordinary request', async () => {
    const c = parseContract(importWsdl(PETS).text, 'pets.spec');
    const reordered = await startStub({ contracts: { ...c, scenarios: [...c.scenarios].reverse() }, port: 0, log: () => undefined });
    try {
      const r = await fetch(`${reordered.url}/pets`, { method: 'POST', headers: { 'content-type': 'text/xml', soapaction: '"urn:getPet"' }, body: envelope(NS11, '1') });
      expect(r.status).toBe(200);
    } finally {
      await reordered.close();
    }
  });

  test('a fault scenario alone on its path, without an example for the request, explains why it does not answer', async () => {
    const text = parseContract(importWsdl(PETS).text, 'pets.spec');
    const only = await startStub({ contracts: { ...text, scenarios: text.scenarios.filter(isFaultScenario) }, port: 0, log: () => undefined });
    try {
      const r = await fetch(`${only.url}/pets`, { method: 'POST', headers: { 'content-type': 'text/xml', soapaction: '"urn:getPet"' }, body: envelope(NS11, '1') });
      expect(r.status).toBe(400);
      expect(await r.text()).toContain('a @fault scenario answers only an Examples row or example file of its own');
    } finally {
      await only.close();
    }
  });

  test('the runner passes each fault example against the stub, and the operation case too', async () => {
    const cases = testCases(parseContract(withRows(importWsdl(PETS).text, { notFound: '      | id  |\n      | 404 |', invalidId: '      | id |\n      | -1 |' }), spec));
    const results = await Promise.all(cases.map((tc) => runCase(tc, { baseUrl: stub.url })));
    expect(results.map((r) => [r.testCase.name, r.passed, r.response?.status])).toEqual([
      ['getPet', true, 200],
      ['getPet fault notFound - example 1: id=404', true, 500],
      ['getPet fault invalidId - example 1: id=-1', true, 500],
    ]);
  });

  test('a fault example run against a service that does not fault fails, saying so', async () => {
    const [, tc] = testCases(parseContract(withRows(importWsdl(PETS).text, { notFound: '      | id |\n      | 7  |' }), spec));
    const r = await runCase(tc, { baseUrl: stub.url });
    expect(r.passed).toBe(false);
    expect(r.mismatches[0]).toMatchObject({ expected: '500', actual: '200' });
  });
});

describe('runner: detail entries beyond the declared one (Axis 1.4 adds stackTrace and hostname to every fault)', () => {
  const axisFault = (declared: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${NS11}"><soapenv:Body><soapenv:Fault><faultcode>soapenv:Server.userException</faultcode><faultstring>no such pet</faultstring><detail>${declared}<ns2:stackTrace xmlns:ns2="http://xml.apache.org/axis/">org.example.PetNotFound&#xd;\n\tat Pets.getPet(Pets.java:12)</ns2:stackTrace><ns3:hostname xmlns:ns3="http://xml.apache.org/axis/">build-7</ns3:hostname></detail></soapenv:Fault></soapenv:Body></soapenv:Envelope>`;
  const declared = (id: string, reason: string) =>
    `<ns1:petNotFound xmlns:ns1="http://example.com/faults"><ns1:id>${id}</ns1:id><ns1:reason>${reason}</ns1:reason></ns1:petNotFound>`;
  const serve = async (body: string) => {
    const server = createServer((_, res) => res.writeHead(500, { 'content-type': 'text/xml; charset=utf-8' }).end(body));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  const run = async (body: string) => {
    const { server, url } = await serve(body);
    try {
      const [, tc] = testCases(parseContract(withRows(importWsdl(PETS).text, { notFound: '      | id  |\n      | 404 |' }), 'pets.spec'));
      return await runCase(tc, { baseUrl: url });
    } finally {
      server.close();
    }
  };

  test('extra entries after the declared one are accepted; the declared one is still checked', async () => {
    expect((await run(axisFault(declared('404', 'deleted')))).mismatches).toEqual([]);
    const wrong = await run(axisFault(declared('404', 'misplaced')));
    expect(wrong.passed).toBe(false);
    expect(wrong.mismatches.map((m) => m.path).join(' ')).toContain('reason');
  });

  test('the extra entries alone, without the declared one, fail naming it', async () => {
    const r = await run(axisFault(''));
    expect(r.passed).toBe(false);
    expect(JSON.stringify(r.mismatches)).toContain('petNotFound');
  });
});
