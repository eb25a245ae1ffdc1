import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContract } from '../../src/contract/load';
import { AccordError } from '../../src/errors';
import { matchResponse } from '../../src/http/match-response';
import { startStub } from '../../src/stub';
import { PET_SPEC, petRequest, post } from './helpers';

/** Example files (`<contract>_examples/*.json`, Specmatic's layout): answered as given, checked at start-up. */
let dir: string;
let spec: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-examples-'));
  spec = path.join(dir, 'api_pet_v1.spec');
  copyFileSync(PET_SPEC, spec);
  mkdirSync(path.join(dir, 'api_pet_v1_examples'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const REX =
  '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body><pet:getPetResponse xmlns:pet="http://example.com/petstore"><pet:id>99</pet:id><pet:name>Rex</pet:name><pet:type>dog</pet:type><pet:status>sold</pet:status></pet:getPetResponse></soapenv:Body></soapenv:Envelope>';

function writeExample(name: string, example: unknown): void {
  writeFileSync(path.join(dir, 'api_pet_v1_examples', name), JSON.stringify(example, null, 2));
}

it("answers a request carrying the example's values with the example's response, as given", async () => {
  writeExample('rex.json', {
    'http-request': { method: 'POST', path: '/ws', headers: { 'Content-Type': 'text/xml' }, body: petRequest('99') },
    'http-response': { status: 200, headers: { 'X-Source': 'example' }, body: REX },
  });
  const lines: string[] = [];
  const stub = await startStub({ contracts: dir, verbose: true, log: (l) => lines.push(l) });
  try {
    // Another prefix, same values: still the example.
    const rex = await post(`${stub.url}/ws`, petRequest('99', 'S', 'p'), { 'content-type': 'text/xml; charset=utf-8' });
    expect(rex.status).toBe(200);
    expect(rex.body).toBe(REX);
    expect(rex.headers['x-source']).toBe('example');
    expect(rex.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(lines[0]).toMatch(/with example file .*rex\.json/);
    // Other values: generated as usual.
    const other = await post(`${stub.url}/ws`, petRequest('5'));
    expect(other.status).toBe(200);
    expect(other.body).not.toContain('<pet:name>Rex</pet:name>');
    expect(matchResponse(loadContract(spec).scenarios[0], other)).toEqual([]);
    // The journal names the example file that answered.
    expect(stub.calls().map((c) => [c.answeredBy, c.example && path.basename(c.example)])).toEqual([
      ['example', 'rex.json'],
      ['scenario', undefined],
    ]);
  } finally {
    await stub.close();
  }
});

it('refuses to start when an example matches no scenario or its response breaks the contract', async () => {
  writeExample('a-wrong-request.json', {
    'http-request': { method: 'POST', path: '/ws', body: petRequest('abc') },
    'http-response': { status: 200, body: REX },
  });
  writeExample('b-wrong-response.json', {
    'http-request': { method: 'POST', path: '/ws', body: petRequest('1') },
    'http-response': { status: 200, body: REX.replace('<pet:id>99</pet:id>', '<pet:id>x</pet:id>') },
  });
  writeExample('c-not-json.json', '{');
  writeFileSync(path.join(dir, 'api_pet_v1_examples', 'c-not-json.json'), '{');
  const err = (await startStub({ contracts: dir }).catch((e: unknown) => e)) as AccordError;
  expect(err).toBeInstanceOf(AccordError);
  const text = err.describe();
  expect(text).toMatch(/a-wrong-request\.json: example file: its request matches no scenario .*closest is "Get a pet by id"/);
  expect(text).toContain('REQUEST.BODY Envelope/Body/getPetRequest/id: expected a number, found "abc"');
  expect(text).toMatch(/b-wrong-response\.json: example file: its response does not satisfy scenario "Get a pet by id"/);
  expect(text).toContain('RESPONSE.BODY Envelope/Body/getPetResponse/id: expected a number, found "x"');
  expect(text).toMatch(/c-not-json\.json: example file is not valid JSON/);
});
