import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from '../helpers/child-env';

/** `accord validate` as a user runs it: the built command, real contract and WSDL files, real messages on disk and on standard input. */
const REPO = path.resolve(__dirname, '../..');
const BIN = path.join(REPO, 'bin/accord.js');
const WSDL = path.join(REPO, '__tests__/fixtures/soap/petstore.wsdl');
const SPEC = path.join(REPO, 'contracts/soap/api_petstore_v1.spec');
const PETS = path.join(REPO, 'contracts/pets/api_pets_v1.spec');

const dir = mkdtempSync(path.join(tmpdir(), 'accord-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function envelope(body: string): string {
  return `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:p="http://example.com/petstore">\n  <soapenv:Body>${body}</soapenv:Body>\n</soapenv:Envelope>\n`;
}
function write(name: string, text: string): string {
  writeFileSync(path.join(dir, name), text);
  return name;
}
function validate(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, 'validate', ...args], { cwd: dir, env: childEnv(), input, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const getPet = write('get-pet.xml', envelope('<p:getPetRequest><p:id>12</p:id></p:getPetRequest>'));
const badId = write('bad-id.xml', envelope('<p:getPetRequest><p:id>twelve</p:id></p:getPetRequest>'));
const answer = write('answer.xml', envelope('<p:getPetResponse><p:id>12</p:id><p:name>Rex</p:name><p:type>dog</p:type><p:status>ok</p:status></p:getPetResponse>'));

describe('accord validate', () => {
  test('a request that fits: the scenario, exit 0 (the WSDL imported in memory)', () => {
    const r = validate([getPet, '--wsdl', WSDL]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^get-pet\.xml fits a scenario of .*petstore\.wsdl as a request:\n {2}Scenario "getPet" \(.*petstore\.wsdl:\d+\)\n {2}API: POST \/ws -> 200\n$/);
  });

  test('a request that fits none: per scenario, closest first, the path, what was expected and what was found; exit 1', () => {
    const r = validate(['-', '--contract', SPEC], readFileSync(path.join(dir, badId), 'utf8'));
    expect(r.status).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^the message on standard input fits no scenario of .*api_petstore_v1\.spec as a request$/);
    expect(lines[2]).toMatch(/^Scenario "Get pet info" \(.*api_petstore_v1\.spec:\d+\)$/);
    expect(lines[3]).toBe('API: POST /ws -> 200');
    expect(lines[4]).toBe('  REQUEST.BODY Envelope/Body/getPetRequest/id: expected a number, found "twelve"');
    expect(r.stdout).toContain('Scenario "Invoice ids"');
    expect(r.stdout.indexOf('Get pet info')).toBeLessThan(r.stdout.indexOf('Invoice ids'));
  });

  test('--response matches against responses; --operation narrows by scenario name or SOAP operation', () => {
    expect(validate([answer, '--wsdl', WSDL, '--response']).status).toBe(0);
    expect(validate([getPet, '--wsdl', WSDL, '--response']).status).toBe(1);
    expect(validate([answer, '--contract', SPEC, '--response', '--operation', 'getPetResponse']).stdout).toContain('Scenario "Get pet info"');
    const narrowed = validate([badId, '--contract', SPEC, '--operation', 'Get pet info']);
    expect(narrowed.status).toBe(1);
    expect(narrowed.stdout).not.toContain('Invoice ids');
  });

  test('JSON messages against a JSON contract', () => {
    expect(validate(['-', '--contract', PETS, '--response'], '{"petid": 10}').status).toBe(0);
    const r = validate(['-', '--contract', PETS, '--response'], '{"petid": "ten"}');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('RESPONSE.BODY petid: expected a number, found "ten"');
  });

  test.each([
    ['no contract nor WSDL', [getPet], /give one of --contract <file\.spec> or --wsdl <file\.wsdl>/],
    ['both', [getPet, '--contract', SPEC, '--wsdl', WSDL], /give one of/],
    [
      'an unknown operation, with a suggestion',
      [getPet, '--wsdl', WSDL, '--operation', 'getPett'],
      /--operation "getPett" names no scenario or SOAP operation .*\(did you mean "getPet"\?\)/,
    ],
    ['a missing message file', ['nothing.xml', '--wsdl', WSDL], /no such file: nothing\.xml/],
    ['a contract with no request bodies', [getPet, '--contract', PETS], /no scenario of .* has a request body to validate against/],
  ])('usage and input errors exit 2: %s', (_what, args, message) => {
    const r = validate(args as string[]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
    expect(r.stdout).toBe('');
  });

  test('a message that is not XML is an input error with its place, not a misfit; an empty one says so', () => {
    const r = validate(['-', '--wsdl', WSDL], '<p:getPetRequest>\n<p:id>');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^accord validate: <stdin>:2:\d+: not well-formed XML: /);
    const empty = validate([write('empty.xml', ''), '--wsdl', WSDL]);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toBe('accord validate: empty.xml: the message is empty; the scenarios expect an XML request body\n');
  });

  test('standard input is read up to the message limit and no further', () => {
    const r = validate(['-', '--wsdl', WSDL], ' '.repeat(16 * 1024 * 1024 + 1));
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('accord validate: <stdin> is larger than 16 MB (16777216 bytes), the limit for a message\n');
  });
});
