import { cpuMs } from '../helpers/timing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContract } from '../../src/contract/load';
import type { Scenario } from '../../src/contract/model';
import { AccordError } from '../../src/errors';
import { matchResponse } from '../../src/http/match-response';
import { startStub, type RunningStub } from '../../src/stub';
import { startServer, type Running } from '../helpers/servers';
import { CONTRACTS, PET_SPEC, PETSTORE_SPEC, SOAP11, call, invoiceRequest, petRequest, post } from './helpers';

/** The stub in-process (the library API), driven over real HTTP on 127.0.0.1. */
let stub: RunningStub;
const logged: string[] = [];
const petScenario = (): Scenario => loadContract(PET_SPEC).scenarios[0];

beforeAll(async () => {
  stub = await startStub({ contracts: [CONTRACTS], port: 0, host: '127.0.0.1', log: (l) => logged.push(l) });
});
afterAll(() => stub.close());

describe('answers requests that match a scenario', () => {
  it('answers the seed pet lookup with an envelope that satisfies the contract, as text/xml', async () => {
    const res = await post(`${stub.url}/ws`, petRequest('10'));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(matchResponse(petScenario(), res)).toEqual([]);
    // The XML declaration real stacks write (soap4r needs it), then the contract's own prefixes and namespace declarations.
    expect(res.body).toMatch(
      /^<\?xml version="1\.0" encoding="utf-8"\?><soapenv:Envelope xmlns:soapenv="http:\/\/schemas.xmlsoap.org\/soap\/envelope\/"><soapenv:Header\/><soapenv:Body><pet:getPetResponse xmlns:pet="http:\/\/example.com\/petstore"><pet:id>\d+<\/pet:id><pet:name>/,
    );
  });

  it('matches a request written with other namespace prefixes', async () => {
    const res = await post(`${stub.url}/ws`, petRequest('10', 'S', 'p'));
    expect(res.status).toBe(200);
    expect(matchResponse(petScenario(), res)).toEqual([]);
  });

  it('answers the invoice ids with a small number of repeated <id> nodes', async () => {
    const res = await post(`${stub.url}/ws`, invoiceRequest('3'));
    expect(res.status).toBe(200);
    expect(matchResponse(loadContract(PET_SPEC).scenarios[1], res)).toEqual([]);
    const ids = res.body.match(/<inv:id>\d+<\/inv:id>/g) ?? [];
    expect(ids.length).toBeGreaterThanOrEqual(1);
    expect(ids.length).toBeLessThanOrEqual(3);
  });

  it('serves @WIP scenarios like the others', async () => {
    const body = petRequest('5').replace(/getPetRequest/g, 'adoptPetRequest');
    const res = await post(`${stub.url}/ws`, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatch(/<pet:adopted>(true|false)<\/pet:adopted>/);
  });

  it('answers plain-text and JSON scenarios with their content types', async () => {
    const square = await post(`${stub.url}/square`, '12', { 'content-type': 'text/plain' });
    expect(square.status).toBe(200);
    expect(square.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(square.body).toMatch(/^\d+$/);
    const pet = await call(`${stub.url}/pets/7`, { method: 'GET' });
    expect(pet.status).toBe(200);
    expect(pet.headers['content-type']).toBe('application/json');
    expect(JSON.parse(pet.body)).toEqual({ petid: expect.any(Number) });
  });

  it("answers an Examples row with the row's values", async () => {
    const pet = await call(`${stub.url}/pets/42`, { method: 'GET' });
    expect(JSON.parse(pet.body)).toEqual({ petid: 42 });
    // contracts/ serves the pet lookup twice; the second contract's row for id 7 still answers id 7.
    const seven = await post(`${stub.url}/ws`, petRequest('7'));
    expect(seven.body).toContain('<pet:id>7</pet:id>');
    const scoped = await startStub({ contracts: PETSTORE_SPEC });
    try {
      const res = await post(`${scoped.url}/ws`, petRequest('7'));
      expect(res.status).toBe(200);
      expect(res.body).toContain('<pet:id>7</pet:id>');
      // A value no row names still matches the scenario and gets a generated answer.
      const other = await post(`${scoped.url}/ws`, petRequest('12345'));
      expect(other.status).toBe(200);
      expect(matchResponse(loadContract(PETSTORE_SPEC).scenarios[0], other)).toEqual([]);
    } finally {
      await scoped.close();
    }
  });

  it('answers SOAP 1.2 envelopes as application/soap+xml', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-stub-'));
    try {
      const env12 = (op: string, field: string) =>
        `<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body><m:${op} xmlns:m="urn:m"><m:${field}>(number)</m:${field}></m:${op}></env:Body></env:Envelope>`;
      writeFileSync(
        path.join(dir, 'api_soap12_v1.spec'),
        `Feature: SOAP 1.2\n  Scenario: Ping\n    Given type Req ${env12('ping', 'n')}\n    And type Res ${env12('pong', 'n')}\n    When POST /soap12\n    And request-header SOAPAction urn:ping\n    And request-body (Req)\n    Then status 200\n    And response-body (Res)\n`,
      );
      const s12 = await startStub({ contracts: dir });
      try {
        const body = env12('ping', 'n').replace('(number)', '4');
        const ok = await post(`${s12.url}/soap12`, body, { 'content-type': 'application/soap+xml', soapaction: 'urn:ping' });
        expect(ok.status).toBe(200);
        expect(ok.headers['content-type']).toBe('application/soap+xml; charset=utf-8');
        const noAction = await post(`${s12.url}/soap12`, body, { 'content-type': 'application/soap+xml' });
        expect(noAction.status).toBe(400);
        expect(noAction.body).toContain('REQUEST.HEADER SOAPAction: expected header SOAPAction, found no such header');
        const wrongAction = await post(`${s12.url}/soap12`, body, { soapaction: 'urn:other' });
        expect(wrongAction.status).toBe(400);
        expect(wrongAction.body).toContain('REQUEST.HEADER SOAPAction: expected "urn:ping", found "urn:other"');
      } finally {
        await s12.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('explains requests that match no scenario (400, plain text)', () => {
  it('names the path of a wrong value: abc in a (number) node', async () => {
    const res = await post(`${stub.url}/ws`, petRequest('abc'));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toContain('accord stub: no scenario matches POST /ws');
    expect(res.body).toMatch(/Scenario "Get a pet by id" \(.*api_pet_v1\.spec:3\)/);
    expect(res.body).toContain('REQUEST.BODY Envelope/Body/getPetRequest/id: expected a number, found "abc"');
    // Scenarios for other operations are named, not detailed.
    expect(res.body).toMatch(/further from this request: .*"Get the ids of all invoices"/);
    expect(res.body).not.toContain('Envelope/Body: expected child nodes (getInvoiceIdsRequest)');
  });

  it('names a missing field', async () => {
    const body = `<soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Header/><soapenv:Body><pet:getPetRequest xmlns:pet="http://example.com/petstore"></pet:getPetRequest></soapenv:Body></soapenv:Envelope>`;
    const res = await post(`${stub.url}/ws`, body);
    expect(res.status).toBe(400);
    expect(res.body).toContain('REQUEST.BODY Envelope/Body/getPetRequest/id: expected node <id>, found nothing (missing node)');
  });

  it('names nodes in the wrong order', async () => {
    const body = `<soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Body><pet:getPetRequest xmlns:pet="http://example.com/petstore"><pet:id>1</pet:id></pet:getPetRequest></soapenv:Body><soapenv:Header/></soapenv:Envelope>`;
    const res = await post(`${stub.url}/ws`, body);
    expect(res.status).toBe(400);
    expect(res.body).toContain('REQUEST.BODY Envelope: expected child nodes');
    expect(res.body).toContain('in this order, found (Body, Header)');
  });

  it('names a typed path parameter that does not fit', async () => {
    const res = await call(`${stub.url}/pets/abc`, { method: 'GET' });
    expect(res.status).toBe(400);
    expect(res.body).toContain('REQUEST.PATH petid: expected a number, found "abc"');
  });

  it("answers malformed XML with the parser's message and place", async () => {
    const res = await post(`${stub.url}/ws`, petRequest('1').replace('</soapenv:Envelope>', ''));
    expect(res.status).toBe(400);
    expect(res.body).toMatch(/^accord stub: the body of POST \/ws is not well-formed XML \(line 1, column \d+: unclosed tag: soapenv:Envelope\)/);
    const empty = await post(`${stub.url}/ws`, '');
    expect(empty.status).toBe(400);
    expect(empty.body).toContain('not well-formed XML (the body is empty)');
  });

  it('answers malformed JSON and a non-number plain body with 400', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-stub-'));
    try {
      writeFileSync(
        path.join(dir, 'api_json_v1.spec'),
        'Feature: JSON\n  Scenario: Create\n    When POST /things\n    And request-body {"name": "(string)", "count": "(number)"}\n    Then status 201\n    And response-body {"id": "(uuid)"}\n',
      );
      const s = await startStub({ contracts: dir });
      try {
        const bad = await post(`${s.url}/things`, '{"name": "x", ', { 'content-type': 'application/json' });
        expect(bad.status).toBe(400);
        expect(bad.body).toMatch(/not well-formed JSON \(.*JSON/);
        const wrong = await post(`${s.url}/things`, '{"name": "x", "count": "many"}', { 'content-type': 'application/json' });
        expect(wrong.body).toContain('REQUEST.BODY count: expected a number, found "many"');
        const ok = await post(`${s.url}/things`, '{"name": "x", "count": 2}', { 'content-type': 'application/json' });
        expect(ok.status).toBe(201);
        expect(JSON.parse(ok.body).id).toMatch(/^[0-9a-f-]{36}$/);
      } finally {
        await s.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const text = await post(`${stub.url}/square`, 'twelve', { 'content-type': 'text/plain' });
    expect(text.status).toBe(400);
    expect(text.body).toContain('REQUEST.BODY: expected a number, found "twelve"');
  });
});

describe('form fields', () => {
  it('matches form-field steps field by field, Examples rows included', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-stub-'));
    try {
      writeFileSync(
        path.join(dir, 'api_form_v1.spec'),
        'Feature: Form\n  Scenario Outline: Log in\n    When POST /login\n    And form-field user (string)\n    And form-field age (number)\n    Then status 200\n    And response-body (string)\n\n    Examples:\n      | user | age |\n      | ann  | 30  |\n',
      );
      const lines: string[] = [];
      const s = await startStub({ contracts: dir, verbose: true, log: (l) => lines.push(l) });
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      try {
        expect((await post(`${s.url}/login`, 'user=bob&age=41', form)).status).toBe(200);
        expect((await post(`${s.url}/login`, 'age=30&user=ann', form)).status).toBe(200);
        expect(lines[0]).not.toContain('with the example');
        expect(lines[1]).toContain('with the example at line 11');
        const bad = await post(`${s.url}/login`, 'user=bob&age=old&extra=1', form);
        expect(bad.status).toBe(400);
        expect(bad.body).toContain('REQUEST.FORM-FIELD age: expected a number, found "old"');
        expect(bad.body).toContain('REQUEST.FORM-FIELD extra: expected no such form field, found unexpected form field "extra"');
        const missing = await post(`${s.url}/login`, 'user=bob', form);
        expect(missing.body).toContain('REQUEST.FORM-FIELD age: expected form field age, found no such field');
      } finally {
        await s.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('unknown paths and methods', () => {
  it('answers an unknown path with 404 and the served method+path list', async () => {
    const res = await call(`${stub.url}/nothing/here`, { method: 'GET' });
    expect(res.status).toBe(404);
    expect(res.body).toContain('accord stub: no scenario is served at GET /nothing/here');
    expect(res.body).toContain('  POST /ws\n');
    expect(res.body).toContain('  GET /pets/(petid:number)\n');
    expect(res.body).toContain('  POST /square\n');
  });

  it('answers HEAD like GET, without the body', async () => {
    const res = await call(`${stub.url}/pets/7`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toBe('');
  });

  it('with cors, answers preflights and allows the origin; without, leaves CORS out', async () => {
    const c = await startStub({ contracts: PET_SPEC, cors: true });
    try {
      const pre = await call(`${c.url}/ws`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,soapaction' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe('http://localhost:3000');
      expect(pre.headers['access-control-allow-methods']).toBe('POST');
      expect(pre.headers['access-control-allow-headers']).toBe('content-type,soapaction');
      const res = await post(`${c.url}/ws`, petRequest('1'), { 'content-type': 'text/xml', origin: 'http://localhost:3000' });
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    } finally {
      await c.close();
    }
    const plain = await post(`${stub.url}/ws`, petRequest('1'), { 'content-type': 'text/xml', origin: 'http://localhost:3000' });
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a known path with another method with 405 and Allow', async () => {
    const res = await call(`${stub.url}/ws`, { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe('hostile input', () => {
  let canary: Running;
  let fetched = 0;
  beforeAll(async () => {
    canary = await startServer(() => {
      fetched++;
      return { body: 'secret' };
    });
  });
  afterAll(() => canary.close());

  /** The answer and the CPU time this process (client and in-process stub) spent on it: a shared machine's load does not count. */
  async function timed(body: string): Promise<{ status: number; body: string; ms: number }> {
    let res!: { status: number; body: string };
    const ms = await cpuMs(async () => {
      res = await post(`${stub.url}/ws`, body);
    });
    return { status: res.status, body: res.body, ms };
  }

  it('refuses an XXE payload without fetching anything', async () => {
    const body = `<?xml version="1.0"?><!DOCTYPE e [<!ENTITY xxe SYSTEM "${canary.url}/secret">]>${petRequest('&xxe;')}`;
    const res = await timed(body);
    expect(res.status).toBe(400);
    expect(res.body).toContain('a DOCTYPE is not allowed');
    expect(res.ms).toBeLessThan(1000);
    expect(fetched).toBe(0);
  });

  it('refuses an entity bomb quickly', async () => {
    const lol = ['<!ENTITY a0 "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY a${i + 1} "${`&a${i};`.repeat(10)}">`)].join('');
    const res = await timed(`<?xml version="1.0"?><!DOCTYPE lolz [${lol}]>${petRequest('&a9;')}`);
    expect(res.status).toBe(400);
    expect(res.body).toContain('a DOCTYPE is not allowed');
    expect(res.ms).toBeLessThan(1000);
  });

  it('refuses deep nesting and huge attribute counts without hanging', async () => {
    const deep = await timed('<a>'.repeat(200_000));
    expect(deep.status).toBe(400);
    expect(deep.body).toContain('nested deeper than');
    expect(deep.ms).toBeLessThan(2000);
    // 500,000 attributes (6 MB, under the body limit): refused at the 257th, not after reading them all.
    const attributes = Array.from({ length: 500_000 }, (_, i) => ` a${i}="1"`).join('');
    const many = await timed(`<soapenv:Envelope xmlns:soapenv="${SOAP11}"${attributes}/>`);
    expect(many.status).toBe(400);
    expect(many.body).toContain('<soapenv:Envelope> has more than 256 attributes');
    expect(many.ms).toBeLessThan(1000);
  });

  it('explains a body of 150,000 wrong nodes in a bounded report (it overflowed the stack: a 500)', async () => {
    const many = (node: string) =>
      `<soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Header/><soapenv:Body><pet:getPetRequest xmlns:pet="http://example.com/petstore">${node.repeat(150_000)}</pet:getPetRequest></soapenv:Body></soapenv:Envelope>`;
    // 150,000 ids where one is expected is one finding; 150,000 unknown nodes are many, cut short.
    for (const [body, told] of [
      [many('<pet:id>1</pet:id>'), /getPetRequest\/id: expected one node <id>, found 150000\n/],
      [many('<pet:x/>'), /… and more mismatches \(the comparison stops after the first 50\)/],
    ] as const) {
      const res = await timed(body);
      expect(res.status).toBe(400);
      expect(res.body).toContain('accord stub: no scenario matches POST /ws');
      expect(res.body).toMatch(/found \((id|x), (id|x), .*… 1499\d\d more\)/);
      expect(res.body).toMatch(told);
      expect(res.body.length).toBeLessThan(50_000);
    }
  });

  it('keeps serving after a client hangs up in the middle of a body', async () => {
    const { port } = new URL(stub.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write('POST /ws HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: 1000\r\n\r\n<soapenv:Envelope');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
      socket.on('error', reject);
    });
    expect((await post(`${stub.url}/ws`, petRequest('2'))).status).toBe(200);
  });

  it('answers 413 to a body over the limit, read or announced', async () => {
    const small = await startStub({ contracts: PET_SPEC, maxBodyBytes: 1024 });
    try {
      const res = await post(`${small.url}/ws`, petRequest('1') + ' '.repeat(2000));
      expect(res.status).toBe(413);
      expect(res.body).toContain('larger than 1024 bytes');
      // Still serving afterwards.
      expect((await post(`${small.url}/ws`, petRequest('1'))).status).toBe(200);
    } finally {
      await small.close();
    }
    const big = await post(`${stub.url}/ws`, 'x'.repeat(10 * 1024 * 1024 + 1));
    expect(big.status).toBe(413);
  });
});

describe('start-up', () => {
  it('logs each request only when verbose', async () => {
    const lines: string[] = [];
    const v = await startStub({ contracts: PET_SPEC, verbose: true, log: (l) => lines.push(l) });
    try {
      await post(`${v.url}/ws`, petRequest('1'));
      await post(`${v.url}/ws`, petRequest('x'));
      expect(lines[0]).toMatch(/^POST \/ws -> 200 "Get a pet by id" \(.*api_pet_v1\.spec:3\) \(\d+\.\d\d ms\)$/);
      expect(lines[1]).toMatch(/^POST \/ws -> 400 no scenario matched/);
    } finally {
      await v.close();
    }
    expect(logged).toEqual([]);
  });

  it('lists Kafka scenarios as not served', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-stub-'));
    try {
      writeFileSync(
        path.join(dir, 'api_events_v1.spec'),
        'Feature: Events\n  Scenario: Pet adopted\n    * kafka-message adoptions (string)\n\n  Scenario: Ping\n    When GET /ping\n    Then status 204\n',
      );
      const s = await startStub({ contracts: dir });
      try {
        expect(s.served.map((x) => x.name)).toEqual(['Ping']);
        expect(s.notServed.map((n) => n.scenario.name)).toEqual(['Pet adopted']);
        expect(s.notServed[0].reason).toContain('Kafka');
        const ping = await call(`${s.url}/ping`, { method: 'GET' });
        expect(ping.status).toBe(204);
        expect(ping.headers['content-length']).toBeUndefined();
      } finally {
        await s.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves a contract named twice (directly and through its folder) once', async () => {
    const s = await startStub({ contracts: [PET_SPEC, path.dirname(PET_SPEC)] });
    try {
      expect(s.served.map((x) => x.name)).toEqual(['Get a pet by id', 'Get the ids of all invoices', 'Adopt a pet (in progress)', 'Get pet info', 'Invoice ids']);
    } finally {
      await s.close();
    }
  });

  it('accepts parsed contracts and reports every broken contract with its place', async () => {
    const s = await startStub({ contracts: loadContract(PET_SPEC) });
    expect((await post(`${s.url}/ws`, petRequest('3'))).status).toBe(200);
    await s.close();
    await s.close(); // twice is fine

    const dir = mkdtempSync(path.join(tmpdir(), 'accord-stub-'));
    try {
      writeFileSync(path.join(dir, 'a.spec'), 'Feature: A\n  Scenario: one\n    When GET /a\n    Then status 2000\n');
      writeFileSync(path.join(dir, 'b.spec'), 'Feature: B\n  Scenario: two\n    When GET /b\n    Then status 200\n    And response-body (Missing)\n');
      const err = await startStub({ contracts: dir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AccordError);
      const text = (err as AccordError).describe();
      expect(text).toMatch(/a\.spec:4: status must be an HTTP status code/);
      expect(text).toMatch(/b\.spec:5: unknown type \(Missing\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await expect(startStub({ contracts: '/no/such/folder' })).rejects.toThrow(/^no such file: \/no\/such\/folder$/);
  });

  it('refuses a port in use with a plain sentence', async () => {
    const port = Number(new URL(stub.url).port);
    await expect(startStub({ contracts: PET_SPEC, port })).rejects.toThrow(/cannot listen on 127\.0\.0\.1:\d+: the port is in use/);
  });
});
