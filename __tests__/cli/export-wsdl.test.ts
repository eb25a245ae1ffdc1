import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../../src/cli/main';

/** `accord export wsdl`: writes the WSDL (exit 0), names what it could not write, refuses a contract with no SOAP scenario (exit 2). */
const FIXTURES = path.join(__dirname, '..', 'fixtures');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-export-cli-'));
  copyFileSync(path.join(FIXTURES, 'export', 'quotes.spec'), path.join(dir, 'quotes.spec'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function accord(...argv: string[]): Promise<{ code: number; out: string; err: string; doc: string }> {
  let out = '';
  let err = '';
  let doc = '';
  const code = await run(argv, { cwd: dir, stdout: (s) => (out += s), stderr: (s) => (err += s), document: (s) => (doc += s) });
  return { code, out, err, doc };
}

test('writes <contract>.wsdl beside where it runs, says what it wrote, exit 0', async () => {
  const r = await accord('export', 'wsdl', 'quotes.spec');
  expect(r).toMatchObject({ code: 0, err: '' });
  expect(r.out).toBe('wrote quotes.wsdl\nQuotes: 2 operations (getQuote, listSymbols), SOAP 1.1\n');
  expect(readFileSync(path.join(dir, 'quotes.wsdl'), 'utf8')).toBe(readFileSync(path.join(FIXTURES, 'export', 'quotes.wsdl'), 'utf8'));
  // An existing file is kept without --force.
  const again = await accord('export', 'wsdl', 'quotes.spec');
  expect(again.code).toBe(2);
  expect(again.err).toMatch(/^accord export wsdl: .*quotes\.wsdl.*--force/);
  expect((await accord('export', 'wsdl', 'quotes.spec', '--force')).code).toBe(0);
});

test('-o - writes the WSDL to standard output, --address sets the service address', async () => {
  const r = await accord('export', 'wsdl', 'quotes.spec', '-o', '-', '--address', 'https://quotes.example.com:8443');
  expect(r.code).toBe(0);
  expect(r.doc).toContain('<soap:address location="https://quotes.example.com:8443/quotes"/>');
  expect(r.err).toBe('Quotes: 2 operations (getQuote, listSymbols), SOAP 1.1\n');
  const bad = await accord('export', 'wsdl', 'quotes.spec', '--address', 'https://host/path');
  expect(bad).toMatchObject({ code: 2, err: expect.stringContaining('--address is a scheme, host and port') });
});

test('a scenario the WSDL cannot hold: the WSDL is written, one warning line names it, exit 0', async () => {
  writeFileSync(
    path.join(dir, 'mixed.spec'),
    `Feature: Mixed
  Scenario: ping
    When POST /ws
    And request-body <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body><p:ping xmlns:p="urn:p"/></soapenv:Body></soapenv:Envelope>
    Then status 200
    And response-body <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body><p:pong xmlns:p="urn:p">(boolean)</p:pong></soapenv:Body></soapenv:Envelope>
  Scenario: pets
    When GET /pets
    Then status 200
`,
  );
  const r = await accord('export', 'wsdl', 'mixed.spec');
  expect(r.code).toBe(0);
  expect(r.out).toBe('wrote mixed.wsdl\nMixed: 1 operation (ping), SOAP 1.1\n');
  expect(r.err).toBe('accord export wsdl: not in the WSDL: scenario "pets" (mixed.spec:7): not a SOAP scenario (GET /pets -> 200: SOAP is POSTed): not written\n');
});

test('no SOAP scenario: nothing written, each scenario named, exit 2; a missing file: exit 2', async () => {
  writeFileSync(path.join(dir, 'pets.spec'), 'Feature: Pets\n  Scenario: pets\n    When POST /pets\n    And request-body {"name": "(string)"}\n    Then status 200\n');
  const r = await accord('export', 'wsdl', 'pets.spec');
  expect(r.code).toBe(2);
  expect(r.err).toBe(
    'accord export wsdl: pets.spec: no SOAP scenario to export; nothing written:\n  scenario "pets" (pets.spec:2): the request body is JSON: not written (a WSDL describes SOAP messages)\n',
  );
  expect(existsSync(path.join(dir, 'pets.wsdl'))).toBe(false);
  const missing = await accord('export', 'wsdl', 'gone.spec');
  expect(missing.code).toBe(2);
  expect(missing.err).toMatch(/^accord export wsdl: no such file: .*gone\.spec\n$/);
});
