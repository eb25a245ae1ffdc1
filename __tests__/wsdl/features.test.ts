import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { buildRequest } from '../../src/http/build-request';
import { matchXml } from '../../src/pattern/match/index';
import { parseXml } from '../../src/xml/parse';
import { runCase, formatCaseReport } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { corpusWsdl, withCorpus } from '../helpers/corpus';
import { expectGolden } from '../helpers/golden';
import { WSDL_FIXTURES as FIXTURES } from './fixtures';

/**
 * Golden files: small WSDLs under __tests__/fixtures/wsdl/<name>/ beside the
 * contract they must produce. `npm run golden` rewrites the expected files
 * (then read the diff before committing it).
 */
type Golden = [string, string, Parameters<typeof importWsdl>[1]];
/** [fixture folder, input WSDL, options]: the input is the fixture's own. */
const GOLDEN: Golden[] = [
  ['features', 'features.wsdl', {}],
  ['features', 'features.wsdl', { soapVersion: '1.2' }],
  ['rpc-literal', 'greeter.wsdl', {}],
  ['rpc-encoded', 'hello.wsdl', {}],
  ['rpc-encoded', 'arrays-soap12.wsdl', {}],
  ['rpc-encoded', 'quotes.wsdl', {}],
  ['rpc-encoded', 'portfolio.wsdl', {}],
  ['soap-headers', 'login.wsdl', {}],
  ['soap-headers', 'login20.wsdl', {}],
  ['transport', 'upload.wsdl', {}],
  ['wsdl20', 'orders.wsdl', {}],
  ['wsdl20', 'orders.wsdl', { soapVersion: '1.2' }],
  ['imports', 'main.wsdl', {}],
  ['services', 'multi.wsdl', {}],
  ['services', 'multi.wsdl', { soapVersion: '1.2' }],
];
/** [folder, corpus folder, options]: a corpus WSDL read in place; its contract is kept in fixtures/wsdl/corpus. */
const CORPUS_GOLDEN: Golden[] = ['asmx-calculator', 'cxf-customerservice', 'cxf-rpclit', 'cxf-soap12', 'node-soap-hello-rpc', 'wsdl20-axis2-generated'].map((f) => [
  'corpus',
  f,
  {},
]);

function golden([folder, , options]: Golden, input: string): void {
  const expectedFile = path.join(
    FIXTURES,
    folder,
    `${path.basename(input).replace(/\.wsdl$/, '')}${options?.soapVersion ? `.soap${options.soapVersion.replace('.', '')}` : ''}.spec`,
  );
  const { text } = importWsdl(input, options);

  test('the contract is the expected one', () => {
    expectGolden(expectedFile, text);
  });

  test('it parses, and its stub passes its own tests', async () => {
    const contract = parseContract(text, expectedFile);
    const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
    try {
      // Fault scenarios without Examples rows are declared and not run, as the runner does.
      for (const tc of testCases(contract).filter((t) => t.notRun === undefined)) {
        const r = await runCase(tc, { baseUrl: stub.url });
        expect(r.passed ? 'passed' : formatCaseReport(r, stub.url)).toBe('passed');
      }
    } finally {
      await stub.close();
    }
  });
}

describe.each(GOLDEN)('golden %s/%s %j', (...g) => golden(g, path.join(FIXTURES, g[0], g[1])));

withCorpus('wsdl-corpus', 'golden contracts of six corpus WSDLs', () => {
  describe.each(CORPUS_GOLDEN)('golden %s/%s %j', (...g) => golden(g, corpusWsdl(g[1])));
});

describe('XSD constructs, as written for features.wsdl', () => {
  const { text, summary } = importWsdl(path.join(FIXTURES, 'features', 'features.wsdl'));
  const contract = parseContract(text, 'features.spec');
  const draw = contract.scenarios.find((s) => s.name === 'draw')!;
  const requestOf = (inner: string) =>
    parseXml(
      `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:f="urn:accord:features:types"><soapenv:Body><f:draw>${inner}</f:draw></soapenv:Body></soapenv:Envelope>`,
    );
  const rest = '<f:tree><f:label>root</f:label><f:child><f:label>a</f:label><f:child><f:label>b</f:label></f:child></f:child></f:tree>';
  const tail =
    '<f:extension><x:whatever xmlns:x="urn:x"><x:deep>1</x:deep></x:whatever></f:extension><f:open><f:known>k</f:known></f:open><f:anything><any><thing/></any></f:anything>';

  test('choice: each alternative alone is accepted', () => {
    for (const alt of ['<f:phone>1</f:phone>', '<f:email>a@b.c</f:email>', '<f:address><f:street>s</f:street><f:city>c</f:city></f:address>']) {
      const doc = requestOf(`<f:circle><f:radius>1.5</f:radius></f:circle>${rest}<f:contact>${alt}</f:contact>${tail}`);
      expect(matchXml(draw.request.body!, doc, draw.scope)).toEqual([]);
    }
    expect(text).toMatch(/<specmatic_choice>\n\s+<f:phone>\(string\)<\/f:phone>\n\s+<f:email>\(string\)<\/f:email>/);
    // Exactly one: none, or two together, is refused.
    for (const alts of ['', '<f:phone>1</f:phone><f:email>a@b.c</f:email>']) {
      const doc = requestOf(`<f:circle><f:radius>1.5</f:radius></f:circle>${rest}<f:contact>${alts}</f:contact>${tail}`);
      expect(matchXml(draw.request.body!, doc, draw.scope).length).toBeGreaterThan(0);
    }
  });

  test('substitution group: members stand for the abstract head; the head itself is not accepted', () => {
    const ok = requestOf(`<f:circle><f:radius>2</f:radius></f:circle><f:square><f:side>3</f:side></f:square>${rest}<f:contact><f:phone>1</f:phone></f:contact>${tail}`);
    expect(matchXml(draw.request.body!, ok, draw.scope)).toEqual([]);
    const head = requestOf(`<f:shape/>${rest}<f:contact><f:phone>1</f:phone></f:contact>${tail}`);
    expect(matchXml(draw.request.body!, head, draw.scope).length).toBeGreaterThan(0);
  });

  test('recursive type: declared once, matched at any depth, generated finitely', () => {
    expect(text.match(/And type Node\n/g)).toHaveLength(1);
    const req = buildRequest(testCases(contract).find((t) => t.name === 'draw')!);
    expect(req.body.length).toBeLessThan(200_000);
  });

  test('xsd:any is a wildcard with its bounds and namespace constraint, anyAttribute an open attribute list; anyType is (anything)', () => {
    expect(text).toContain('<specmatic_any specmatic_occurs="multiple" namespace="##other" targetNamespace="urn:accord:features:types"/>');
    expect(text).toContain('<SPECMATIC_TYPE specmatic_any_attribute="##any">');
    expect(summary.notes.join('\n')).not.toMatch(/xsd:any|anyAttribute/);
    expect(summary.anything).toBe(1);
  });

  test('extension, group, attributeGroup from a chameleon include: one flattened type with typed attributes', () => {
    expect(text).toContain('<SPECMATIC_TYPE id="(int)" lang.opt="(language)" schema.opt="2.0" created="(datetime)" version.opt="(int)">');
    expect(text).toMatch(
      /<f:first>\(string\)<\/f:first>\n\s+<f:last>\(string\)<\/f:last>\n\s+<f:age specmatic_occurs="optional">\(int\)<\/f:age>\n\s+<f:email specmatic_occurs="multiple">\(string\)<\/f:email>\n\s+<f:nickname specmatic_nillable="true">\(string\)<\/f:nickname>\n\s+<f:salary>\(decimal\)<\/f:salary>/,
    );
  });

  test('simple types: enumerations are enums; lists, unions and facets keep their named types; built-ins with a lexical space have their own placeholder', () => {
    expect(text).toContain('enum Status (string) values active,retired');
    expect(text).toContain('enum Priority (int) values 1,2,3');
    expect(text).toContain('type Tags (list string)');
    expect(text).toContain('type IdOrName (int | string)');
    expect(text).toContain('type Code (string pattern="[A-Z]{3}")');
    for (const [node, placeholder] of [
      ['tags', 'Tags'],
      ['key', 'IdOrName'],
      ['code', 'Code'],
      ['month', 'gYearMonth'],
      ['blob', 'base64Binary'],
      ['count', 'positiveInteger'],
      ['ok', 'boolean'],
      ['when', 'date'],
      ['at', 'time'],
      ['priority', 'Priority'],
    ]) {
      expect(text).toContain(`<f:${node}>(${placeholder})</f:${node}>`);
    }
    expect(text).toContain('<SPECMATIC_TYPE currency="(string)">(decimal)</SPECMATIC_TYPE>');
  });

  test('soap:header part (optional: not sent) in the request Header, operation without soap:operation gets an empty optional SOAPAction, one-way has no response', () => {
    const getPerson = contract.scenarios.find((s) => s.name === 'getPerson')!;
    expect(buildRequest(testCases(contract)[0]).body).toMatch(/<soapenv:Header\/><soapenv:Body>/);
    expect(getPerson.request.headers.map((h) => h.name)).toEqual(['SOAPAction']);
    const notify = contract.scenarios.find((s) => s.name === 'notify')!;
    expect(notify.request.headers).toEqual([expect.objectContaining({ name: 'SOAPAction', optional: true })]);
    expect(notify.response.body).toBeUndefined();
    expect(notify.response.status).toBe(202);
  });

  test('1.1 and 1.2 ports of the same port type: one scenario per operation, the choice reported', () => {
    expect(contract.scenarios.map((s) => s.name)).toEqual(['getPerson', 'getPerson fault notFound', 'draw', 'notify']);
    expect(summary.choices[0]).toBe('3 operations are offered over SOAP 1.1 and 1.2: SOAP 1.1 written (use --soap-version 1.2 for the other)');
  });
});
