import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClientAsync } from 'soap';
import { loadContract } from '../../src/contract/load';
import { AccordError } from '../../src/errors';
import { buildRequest } from '../../src/http/build-request';
import { generateBody } from '../../src/pattern/generate/index';
import { createRandom } from '../../src/pattern/random';
import { startStub, type RunningStub } from '../../src/stub';
import { compileXmlTemplate } from '../../src/stub/answer/template';
import { REPO, petRequest, post } from './helpers';

/**
 * Examples rows that echo the request (issue 27, point 1): a response cell holding `{{…}}` is
 * filled from the request the row answers, with the placeholders of response-template.ts;
 * refused at start-up when it can never fit, checked again on each answer. Real stub on
 * 127.0.0.1, a real SOAP client (the `soap` package), the real CLI for the refusal.
 */
const PETS = path.join(REPO, '__tests__', 'fixtures', 'row-template', 'pets.spec');
const WSDL = path.join(REPO, '__tests__', 'fixtures', 'soap', 'petstore.wsdl');
const CLI = path.join(REPO, 'bin', 'accord.js');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-row-template-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** pets.spec with the templated row's cells replaced; the row is on the file's last line. */
function variant(name: string, cells: { id?: string; name?: string; type?: string }): { file: string; line: number } {
  const text = readFileSync(PETS, 'utf8').replace(
    /\| \{\{request\.body\.getPetRequest\/id\}\} \| pet \{\{request\.body\.id\}\} \| cat {2}\|/,
    `| ${cells.id ?? '{{request.body.getPetRequest/id}}'} | ${cells.name ?? 'pet {{request.body.id}}'} | ${cells.type ?? 'cat'} |`,
  );
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return { file, line: text.trimEnd().split('\n').length };
}

async function refusal(file: string): Promise<AccordError> {
  try {
    const s = await startStub({ contracts: [file], log: () => {} });
    await s.close();
  } catch (e) {
    expect(e).toBeInstanceOf(AccordError);
    return e as AccordError;
  }
  throw new Error('not refused');
}

describe('an Examples row whose response cells echo the request', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ contracts: [PETS], log: () => {} });
  });
  afterAll(() => stub.close());
  afterEach(() => stub.reset());

  it('the soap package sends two ids and gets each back; the plain row still answers its own id', async () => {
    const client = await createClientAsync(WSDL, { endpoint: `${stub.url}/ws` });
    type Pet = { id: number | string; name: string; type: string; status: string };
    const [a] = (await client.getPetAsync({ id: 4711 })) as [Pet];
    const [b] = (await client.getPetAsync({ id: 8 })) as [Pet];
    const [rex] = (await client.getPetAsync({ id: 7 })) as [Pet];
    expect([String(a.id), a.name, a.type, String(b.id), b.name, b.type]).toEqual(['4711', 'pet 4711', 'cat', '8', 'pet 8', 'cat']);
    // {{uuid}}: a new one per answer.
    expect(a.status).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.status).not.toBe(b.status);
    expect([String(rex.id), rex.name, rex.status]).toEqual(['7', 'Rex', 'sold']);
    expect(stub.calls().map((c) => [c.status, c.answeredBy, c.templated])).toEqual([
      [200, 'example', true],
      [200, 'example', true],
      [200, 'example', undefined],
    ]);
  });

  it('makes a new answer for a repeated request when a cell is generated ({{uuid}})', async () => {
    const one = await post(`${stub.url}/ws`, petRequest('31'));
    const two = await post(`${stub.url}/ws`, petRequest('31'));
    const status = (body: string) => /<pet:status>([^<]+)</.exec(body)?.[1];
    expect(one.body).toContain('<pet:id>31</pet:id><pet:name>pet 31</pet:name>');
    expect(status(one.body)).not.toBe(status(two.body));
  });

  it('answers 500 with the mismatch when a value from this request does not fit, and journals it', async () => {
    // `1{{…}}` fits a (number) with the sample value, not with a negative id: "1-5".
    const { file } = variant('glued.spec', { id: '1{{request.body.id}}' });
    const s = await startStub({ contracts: [file], log: () => {} });
    try {
      expect((await post(`${s.url}/ws`, petRequest('42'))).body).toContain('<pet:id>142</pet:id>');
      const bad = await post(`${s.url}/ws`, petRequest('-5'));
      expect(bad.status).toBe(500);
      expect(bad.body).toContain(`the Examples row at ${file}:`);
      expect(bad.body).toContain('"1-5" fits no place column "id" names in the response ((number) at RESPONSE.BODY Envelope/Body/getPetResponse/id)');
      expect(s.calls()[1]).toMatchObject({ status: 500, answeredBy: 'example', templated: true, report: bad.body });
    } finally {
      await s.close();
    }
  });
});

describe('a JSON row', () => {
  it('puts a path parameter and a query value back as JSON numbers, each request its own', async () => {
    const file = path.join(dir, 'orders.spec');
    writeFileSync(
      file,
      'Feature: Orders\n  Scenario Outline: Get an order\n    When GET /orders/(id:number)?count=(number)\n    Then status 200\n    And response-body {"id": "(number)", "count": "(number)", "ref": "(string)"}\n\n    Examples:\n      | id | count | ref |\n      | {{request.path.id}} | {{REQUEST.QUERY-PARAMS.count}} | order {{request.path.id}} |\n',
    );
    const s = await startStub({ contracts: [file], log: () => {} });
    try {
      const a = await fetch(`${s.url}/orders/4711?count=3`);
      const b = await fetch(`${s.url}/orders/12?count=5`);
      expect(await a.json()).toEqual({ id: 4711, count: 3, ref: 'order 4711' });
      expect(await b.json()).toEqual({ id: 12, count: 5, ref: 'order 12' });
    } finally {
      await s.close();
    }
  });
});

describe('a templated response header cell', () => {
  it('echoes a JSON value into a header; a value with a line break is a 500 saying so, not a crash', async () => {
    const file = path.join(dir, 'header.spec');
    writeFileSync(
      file,
      'Feature: Echo\n  Scenario Outline: Echo a name\n    When POST /echo\n    And request-body {"name": "(string)"}\n    Then status 200\n    And response-header X-Name (string)\n    And response-body {"ok": "(boolean)"}\n\n    Examples:\n      | X-Name |\n      | hello {{request.body.name}} |\n',
    );
    const s = await startStub({ contracts: [file], log: () => {} });
    try {
      const json = { 'content-type': 'application/json' };
      const good = await post(`${s.url}/echo`, JSON.stringify({ name: 'ada' }), json);
      expect([good.status, good.headers['x-name']]).toEqual([200, 'hello ada']);
      const bad = await post(`${s.url}/echo`, JSON.stringify({ name: 'a\nb' }), json);
      expect(bad.status).toBe(500);
      expect(bad.body).toContain('a templated header is not valid HTTP: "x-name"');
      expect(s.calls().map((c) => [c.status, c.templated])).toEqual([
        [200, true],
        [500, true],
      ]);
    } finally {
      await s.close();
    }
  });
});

describe('a templated Examples cell that can never fit is refused when the contract loads', () => {
  it('a node path that names no node of the request, with file and line', async () => {
    const { file, line } = variant('no-node.spec', { name: 'pet {{request.body.getPetRequest/colour}}' });
    const e = await refusal(file);
    expect(e.location).toEqual({ file, line });
    expect(e.describe()).toContain(
      `${file}:${line}: Examples row refused: its cell in column "name" has "{{request.body.getPetRequest/colour}}", which names no node of the request of scenario "Get a pet by id"`,
    );
  });

  it('a source whose type cannot fit the slot ({{uuid}} in a number)', async () => {
    const { file, line } = variant('uuid-number.spec', { id: '{{uuid}}' });
    const e = await refusal(file);
    expect(e.describe()).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:${line}: Examples row refused: its cell in column "id" cannot fit scenario "Get a pet by id"`),
    );
    expect(e.describe()).toContain('fits no place column "id" names in the response ((number) at RESPONSE.BODY Envelope/Body/getPetResponse/id)');
  });

  it('a malformed placeholder, and a path parameter the scenario does not have', async () => {
    expect((await refusal(variant('open.spec', { type: '{{request.body.id' }).file)).message).toContain('has "{{" with no "}}" after it');
    expect((await refusal(variant('path.spec', { type: '{{request.path.id}}' }).file)).message).toContain('has no path parameter "id"');
  });

  it('a placeholder in a column that names only request places: a contract error at its row', () => {
    const file = path.join(dir, 'request-only.spec');
    writeFileSync(
      file,
      'Feature: Orders\n  Scenario Outline: Get an order\n    When GET /orders/(oid:number)\n    Then status 200\n    And response-body {"id": "(number)"}\n\n    Examples:\n      | oid | id |\n      | {{uuid}} | 1 |\n',
    );
    let error: unknown;
    try {
      loadContract(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AccordError);
    expect((error as AccordError).describe()).toContain(
      `${file}:9: Examples value "{{uuid}}" in column "oid" holds a placeholder, but the column names no place in the response of scenario "Get an order" (placeholders fill answers only)`,
    );
  });

  it('accord stub refuses to start: exit 2, file and line, no stack', () => {
    const { file, line } = variant('cli.spec', { id: '{{request.body.nothing}}' });
    const r = spawnSync(process.execPath, [CLI, 'stub', file, '--port', '0'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${file}:${line}: Examples row refused: its cell in column "id" has "{{request.body.nothing}}", which names no node`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('rows without templates cost nothing extra', () => {
  it('the compiled XML answer of a plain row stays byte for byte what generateBody gives', () => {
    const s = loadContract(PETS).scenarios[0];
    const plain = s.examples[0];
    const template = compileXmlTemplate(s, plain)!;
    for (let seed = 0; seed < 50; seed++) {
      const expected = generateBody(s.response.body!, { scope: s.scope, rng: createRandom(seed), examples: plain.values }).text;
      expect(template(createRandom(seed))).toBe(expected);
      expect(template(createRandom(seed), plain.values)).toBe(expected);
    }
  });
});

describe('the runner and a templated row', () => {
  it('sends a generated value where a request place has a templated cell, never the placeholder', () => {
    const s = loadContract(PETS).scenarios[0];
    const req = buildRequest({ scenario: s, row: s.examples[1], name: 'echo' });
    expect(req.body).not.toContain('{{');
    expect(req.body).toMatch(/<pet:id>-?\d+(\.\d+)?<\/pet:id>/);
    expect(buildRequest({ scenario: s, row: s.examples[0], name: 'plain' }).body).toContain('<pet:id>7</pet:id>');
  });
});
