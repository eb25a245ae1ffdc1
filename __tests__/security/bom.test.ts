import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContract, testCases } from '../../src/contract/load';
import { parseJson } from '../../src/json/parse';
import { importLogs } from '../../src/logs/import-log';
import { runCase } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { startServer } from '../helpers/servers';
import { PET_SPEC, petRequest, post } from '../stub/helpers';

/**
 * Issue 11: XML with a UTF-8 byte order mark was accepted and JSON with one
 * refused (JSON.parse does not skip it). Both are accepted now, wherever JSON
 * is read: request and response bodies, example files, HAR recordings.
 */
const BOM = '\ufeff';
const LOGS = path.join(__dirname, '..', 'fixtures', 'logs');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-bom-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const PETS =
  'Feature: Pets\n\n  Scenario: Add a pet\n    When POST /pets\n    And request-body {"name": "(string)"}\n    Then status 201\n    And response-body {"id": "(number)"}\n';

it('parseJson skips a leading byte order mark, and only a leading one', () => {
  expect(parseJson(`${BOM}{"a": 1}`)).toEqual({ a: 1 });
  expect(() => parseJson(`{"a": 1}${BOM}`)).toThrow(SyntaxError);
});

it('the stub takes a JSON request with a BOM as it takes an XML one', async () => {
  writeFileSync(path.join(dir, 'pets.spec'), PETS);
  const stub = await startStub({ contracts: dir, log: () => {} });
  try {
    const json = await post(`${stub.url}/pets`, `${BOM}{"name": "Rex"}`, { 'content-type': 'application/json' });
    expect(json.status).toBe(201);
    const xml = await startStub({ contracts: PET_SPEC, log: () => {} });
    try {
      expect((await post(`${xml.url}/ws`, `${BOM}${petRequest('7')}`)).status).toBe(200);
    } finally {
      await xml.close();
    }
  } finally {
    await stub.close();
  }
});

it('the runner takes a JSON response with a BOM', async () => {
  writeFileSync(path.join(dir, 'pets.spec'), PETS.replace('status 201', 'status 200'));
  const tc = testCases(loadContract(path.join(dir, 'pets.spec')))[0];
  const service = await startServer(() => ({ type: 'application/json', body: `${BOM}{"id": 7}` }));
  try {
    const r = await runCase(tc, { baseUrl: service.url, timeoutMs: 5_000 });
    expect(r.mismatches).toEqual([]);
    expect(r.passed).toBe(true);
  } finally {
    await service.close();
  }
});

it('an example file saved with a BOM is served', async () => {
  const spec = path.join(dir, 'api_pet_v1.spec');
  copyFileSync(PET_SPEC, spec);
  mkdirSync(path.join(dir, 'api_pet_v1_examples'));
  const REX =
    '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body><pet:getPetResponse xmlns:pet="http://example.com/petstore"><pet:id>99</pet:id><pet:name>Rex</pet:name><pet:type>dog</pet:type><pet:status>sold</pet:status></pet:getPetResponse></soapenv:Body></soapenv:Envelope>';
  const example = { 'http-request': { method: 'POST', path: '/ws', body: petRequest('99') }, 'http-response': { status: 200, body: REX } };
  writeFileSync(path.join(dir, 'api_pet_v1_examples', 'rex.json'), BOM + JSON.stringify(example));
  const stub = await startStub({ contracts: dir, log: () => {} });
  try {
    const res = await post(`${stub.url}/ws`, petRequest('99'));
    expect(res.status).toBe(200);
    expect(res.body).toBe(REX);
  } finally {
    await stub.close();
  }
});

it('a HAR recording saved with a BOM imports as it does without', async () => {
  const har = path.join(dir, 'recording.har');
  writeFileSync(har, BOM + readFileSync(path.join(LOGS, 'recording.har'), 'utf8'));
  const withBom = await importLogs([har]);
  const without = await importLogs([path.join(LOGS, 'recording.har')]);
  expect(withBom.report.problemCount).toBe(0);
  expect(withBom.contract?.split(dir).join(LOGS)).toBe(without.contract);
});
