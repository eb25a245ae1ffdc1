import path from 'node:path';
import { loadContract, parseContract, testCases } from '../../src/contract/load';
import type { TestCase } from '../../src/contract/model';
import { startExampleService } from '../../src/example/service';
import { formatCaseReport, runCase } from '../../src/runner/run-case';
import { startServer, startSilentServer, startSoapPetService, type Reply, type Running } from '../helpers/servers';

const CONTRACTS = path.join(__dirname, '..', '..', 'contracts');

function caseOf(file: string, name: string): TestCase {
  const tc = testCases(loadContract(path.join(CONTRACTS, file))).find((t) => t.name.startsWith(name));
  if (!tc) throw new Error(`no case ${name} in ${file}`);
  return tc;
}

/** Runs one case against a server that answers `reply`, and returns the report lines (empty when it passed). */
async function against(tc: TestCase, reply: Reply): Promise<string[]> {
  const server = await startServer(() => reply);
  try {
    const r = await runCase(tc, { baseUrl: server.url, timeoutMs: 2_000 });
    return r.passed ? [] : formatCaseReport(r, server.url).split('\n');
  } finally {
    await server.close();
  }
}

const soap = (body: string, prefix = 'soap') =>
  `<${prefix}:Envelope xmlns:${prefix}="http://schemas.xmlsoap.org/soap/envelope/"><${prefix}:Header/><${prefix}:Body>${body}</${prefix}:Body></${prefix}:Envelope>`;

describe('contract tests against real services', () => {
  let example: Running;
  beforeAll(async () => {
    example = await startExampleService(0);
  });
  afterAll(() => example.close());

  it('every example scenario passes against the example service, except the @WIP one', async () => {
    const dirs = ['soap/api_pet_v1.spec', 'soap/api_petstore_v1.spec', 'math/api_math_v1.spec', 'pets/api_pets_v1.spec'];
    const results = [];
    for (const f of dirs) for (const tc of testCases(loadContract(path.join(CONTRACTS, f)))) results.push(await runCase(tc, { baseUrl: example.url }));
    expect(results.filter((r) => !r.passed).map((r) => r.testCase.name)).toEqual(['Adopt a pet (in progress)']);
    expect(results).toHaveLength(10);
  });

  it('the pet lookup passes against a service hosted by the independent `soap` package', async () => {
    const service = await startSoapPetService();
    try {
      const r = await runCase(caseOf('soap/api_pet_v1.spec', 'Get a pet by id'), { baseUrl: service.url });
      expect(r.mismatches).toEqual([]);
      expect(r.error).toBeUndefined();
      expect(r.response?.body).toContain('<getPetResponse xmlns="http://example.com/petstore">');
      const factored = await runCase(caseOf('soap/api_petstore_v1.spec', 'Get pet info'), { baseUrl: service.url });
      expect(factored.passed).toBe(true);
    } finally {
      await service.close();
    }
  });
});

describe('each seed sample and its failing twin', () => {
  const pet = caseOf('soap/api_pet_v1.spec', 'Get a pet by id');
  /** A getPetResponse with the given `<name>value</name>` fields, every node under `prefix`. */
  const petBody = (fields: string, prefix = 'ns1') =>
    soap(`<${prefix}:getPetResponse xmlns:${prefix}="urn:p">${fields.replace(/<(\/?)(\w+)>/g, `<$1${prefix}:$2>`)}</${prefix}:getPetResponse>`);

  it('pet lookup: passes with another prefix, fails on order, missing node and non-number', async () => {
    expect(await against(pet, { body: petBody('<id>1</id><name>Rex</name><type>dog</type><status>ok</status>', 'zz') })).toEqual([]);
    const order = await against(pet, { body: petBody('<name>Rex</name><id>1</id><type>dog</type><status>ok</status>') });
    expect(order).toContain('  RESPONSE.BODY Envelope/Body/getPetResponse: expected child nodes (id, name, type, status) in this order, found (name, id, type, status)');
    const missing = await against(pet, { body: petBody('<id>1</id><type>dog</type><status>ok</status>') });
    expect(missing).toContain('  RESPONSE.BODY Envelope/Body/getPetResponse/name: expected node <name>, found <type> in its place');
    const nan = await against(pet, { body: petBody('<id>abc</id><name>Rex</name><type>dog</type><status>ok</status>') });
    expect(nan).toContain('  RESPONSE.BODY Envelope/Body/getPetResponse/id: expected a number, found "abc"');
    expect(nan[0]).toMatch(/^Scenario "Get a pet by id" \(.*contracts\/soap\/api_pet_v1\.spec:3\)$/);
  });

  it('invoice ids (Id*): any number of ids passes, a bad one fails with its index', async () => {
    const inv = caseOf('soap/api_pet_v1.spec', 'Get the ids of all invoices');
    const ids = (...v: string[]) => ({ body: soap(`<i:getInvoiceIdsResponse xmlns:i="urn:i">${v.map((x) => `<i:id>${x}</i:id>`).join('')}</i:getInvoiceIdsResponse>`) });
    expect(await against(inv, ids())).toEqual([]);
    expect(await against(inv, ids('1', '2', '3', '4'))).toEqual([]);
    expect(await against(inv, ids('1', 'two'))).toContain('  RESPONSE.BODY Envelope/Body/getInvoiceIdsResponse/id[1]: expected a number, found "two"');
  });

  it('a response of 100,000 bad ids fails with the first 50 mismatches and a count, not a stack overflow', async () => {
    const inv = caseOf('soap/api_pet_v1.spec', 'Get the ids of all invoices');
    const lines = await against(inv, { body: soap(`<i:getInvoiceIdsResponse xmlns:i="urn:i">${'<i:id>x</i:id>'.repeat(100_000)}</i:getInvoiceIdsResponse>`) });
    expect(lines.filter((l) => l.startsWith('  RESPONSE.BODY'))).toHaveLength(50);
    expect(lines).toContain('  … and 99950 more mismatches');
  });

  it('the Background-factored SOAP form: passes, and fails on a missing node', async () => {
    const tc = caseOf('soap/api_petstore_v1.spec', 'Get pet info');
    expect(await against(tc, { body: petBody('<id>1</id><name>Rex</name><type>dog</type><status>ok</status>', 'x') })).toEqual([]);
    expect(await against(tc, { body: petBody('<id>1</id><name>Rex</name><type>dog</type>') })).toContain(
      '  RESPONSE.BODY Envelope/Body/getPetResponse/status: expected node <status>, found nothing (missing node)',
    );
  });

  it('POST /square and /cube with (number) bodies: a JSON object is not a number', async () => {
    for (const name of ['Square of a number', 'Cube of a number']) {
      const tc = caseOf('math/api_math_v1.spec', name);
      expect(await against(tc, { type: 'text/plain', body: '49' })).toEqual([]);
      expect(await against(tc, { type: 'application/json', body: '{"result": 49}' })).toContain('  RESPONSE.BODY: expected a number, found "{\\"result\\": 49}"');
    }
  });

  it('GET /pets/(petid:number) with a JSON object: a string petid fails', async () => {
    const tc = caseOf('pets/api_pets_v1.spec', 'Fetch a pet by id');
    const seen: string[] = [];
    const server = await startServer((req) => {
      seen.push(req.url);
      return { type: 'application/json', body: '{"petid": 10}' };
    });
    try {
      expect((await runCase(tc, { baseUrl: server.url })).passed).toBe(true);
      expect(seen).toEqual(['/pets/10']);
    } finally {
      await server.close();
    }
    expect(await against(tc, { type: 'application/json', body: '{"petid": "10"}' })).toContain('  RESPONSE.BODY petid: expected a number, found "10"');
  });

  it('a wrong status, a refused connection, a timeout and a non-XML answer are clear failures, not hangs', async () => {
    expect(await against(pet, { status: 500, body: '<oops/>' })).toContain('  RESPONSE.STATUS: expected 200, found 500');
    expect(await against(pet, { type: 'text/html', body: '<html><body>Bad gateway' })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^ {2}RESPONSE\.BODY: expected an XML document, found "<html><body>Bad gateway" \(/)]),
    );
    const refused = await runCase(pet, { baseUrl: 'http://127.0.0.1:9' });
    expect(refused.error).toMatch(/connection refused by http:\/\/127\.0\.0\.1:9: is the service running\?/);
    const silent = await startSilentServer();
    const started = Date.now();
    const slow = await runCase(pet, { baseUrl: silent.url, timeoutMs: 300 });
    await silent.close();
    expect(slow.error).toMatch(/no answer from .* within 300 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('a response with two fields swapped', () => {
  const book = testCases(
    parseContract(
      `Feature: Books
  Scenario: Get a book
    Given type Book
    """
    <book><title>(string)</title><author>(string)</author><year>(number)</year><isbn>(string)</isbn></book>
    """
    When POST /books
    And request-body <getBook><id>(number)</id></getBook>
    Then status 200
    And response-body <getBookResponse>(Book)</getBookResponse>
`,
      'books.spec',
    ),
  )[0];

  it('is reported as the order and the one node out of place, with no contradictory lines', async () => {
    const lines = await against(book, { body: '<getBookResponse><book><title>T</title><year>1999</year><author>A</author><isbn>x</isbn></book></getBookResponse>' });
    expect(lines.filter((l) => l.startsWith('  RESPONSE'))).toEqual([
      '  RESPONSE.BODY getBookResponse/book: expected child nodes (title, author, year, isbn) in this order, found (title, year, author, isbn)',
      '  RESPONSE.BODY getBookResponse/book/author: expected node <author> before <year>, found <author> after <year>',
    ]);
  });
});

describe('Request sent', () => {
  it('shows the path as sent: the base URL path prefix, the contract path and the query', async () => {
    const tc = testCases(parseContract('Feature: f\n  Scenario: list pets\n    When GET /pets?limit=(number)&kind=dog\n    Then status 200\n', 'pets.spec'))[0];
    const seen: string[] = [];
    const server = await startServer((req) => {
      seen.push(req.url);
      return { status: 404, body: 'not here' };
    });
    try {
      const r = await runCase(tc, { baseUrl: `${server.url}/prefix/v1` });
      const lines = formatCaseReport(r, `${server.url}/prefix/v1`).split('\n');
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatch(/^\/prefix\/v1\/pets\?limit=\d+&kind=dog$/);
      expect(lines[lines.indexOf('Request sent:') + 1]).toBe(`  GET ${seen[0]}`);
    } finally {
      await server.close();
    }
  });
});

describe('Response read', () => {
  const tc = () => testCases(parseContract('Feature: f\n  Scenario: get a pet\n    When GET /pets/1\n    Then status 200\n    And response-body (string)\n', 'pets.spec'))[0];

  it('reads a body of many chunks whole, and refuses one past the size limit with a sentence', async () => {
    const big = 'x'.repeat(300_000);
    const server = await startServer(() => ({ status: 200, type: 'text/plain', body: big }));
    try {
      const whole = await runCase(tc(), { baseUrl: server.url });
      expect(whole.passed).toBe(true);
      expect(whole.response?.body).toBe(big);
      const capped = await runCase(tc(), { baseUrl: server.url, maxBodyBytes: 100_000 });
      expect(capped.passed).toBe(false);
      expect(capped.error).toContain('response body is larger than 100000 bytes');
    } finally {
      await server.close();
    }
  });
});
