import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContract } from '../../src/contract/load';
import { wsdlFixture as fixture } from './fixtures';
import { runAccord } from '../helpers/cli-run';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-import-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const accord = (...argv: string[]) => runAccord(argv, dir);

test('writes <wsdl base name>.spec in the current folder, prints the path and a summary', async () => {
  const r = await accord('import', 'wsdl', fixture('features/features.wsdl'));
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  const file = path.join(dir, 'features.spec');
  expect(r.out).toBe(
    [
      'wrote features.spec',
      'Features: 3 operations, 1 fault, 4 scenarios, 16 types, SOAP 1.1, 1 node marked (anything)',
      '  3 operations are offered over SOAP 1.1 and 1.2: SOAP 1.1 written (use --soap-version 1.2 for the other)',
      '  ports written: FeaturesSoap; ports offering the same operations left out: FeaturesSoap12',
      '',
    ].join('\n'),
  );
  expect(loadContract(file).scenarios.map((s) => s.name)).toEqual(['getPerson', 'getPerson fault notFound', 'draw', 'notify']);
});

test('--output, --soap-version, and what was left unresolved or skipped', async () => {
  const r = await accord('import', 'wsdl', fixture('imports/main.wsdl'), '--output', 'contracts/catalog_v1.spec', '--allow-unresolved');
  // The folder does not exist: writing fails with a clear message.
  expect(r.code).toBe(2);
  expect(r.err).toMatch(/^accord import wsdl: cannot write contracts\/catalog_v1\.spec: its folder does not exist$/m);
  // Without --allow-unresolved such a WSDL is refused (unresolved.test.ts); with it, what can be imported is written.
  const ok = await accord('import', 'wsdl', fixture('imports/main.wsdl'), '-o', 'catalog_v1.spec', '--allow-unresolved');
  expect(ok.code).toBe(0);
  expect(ok.out).toMatch(/^wrote catalog_v1\.spec\nCatalogService: 2 operations, 2 scenarios, 4 types, SOAP 1\.1, 2 nodes marked \(anything\), 2 imports unresolved\n/);
  // What was not loaded is said on standard error, where it is not lost among the summary.
  expect(ok.err).toMatch(
    /^accord import wsdl: .*catalog\.xsd:8: import https:\/\/schemas\.example\.com\/remote\.xsd not loaded \(a URL, not fetched: `accord import wsdl <the WSDL's URL>` fetches it with the WSDL\): what it declares is typed \(anything\)$/m,
  );
  expect(ok.err).toMatch(
    /^accord import wsdl: .*catalog\.xsd:9: import gone\.xsd not loaded \(no such file, looked for at .*xsds\/gone\.xsd\): what it declares is typed \(anything\)$/m,
  );
  const twelve = await accord('import', 'wsdl', fixture('features/features.wsdl'), '-o', 'features12.spec', '--soap-version', '1.2');
  expect(twelve.code).toBe(0);
  expect(readFileSync(path.join(dir, 'features12.spec'), 'utf8')).toContain('http://www.w3.org/2003/05/soap-envelope');
});

test('an existing file is kept unless --force', async () => {
  writeFileSync(path.join(dir, 'mine.spec'), 'Feature: mine\n');
  const r = await accord('import', 'wsdl', fixture('rpc-encoded/hello.wsdl'), '-o', 'mine.spec');
  expect(r.code).toBe(2);
  expect(r.err).toBe('accord import wsdl: mine.spec exists; use --force to overwrite it or --output to write elsewhere\n');
  expect(readFileSync(path.join(dir, 'mine.spec'), 'utf8')).toBe('Feature: mine\n');
  expect((await accord('import', 'wsdl', fixture('rpc-encoded/hello.wsdl'), '-o', 'mine.spec', '--force')).code).toBe(0);
});

test.each([
  [['import', 'wsdl', 'missing.wsdl'], /^accord import wsdl: no such file: .*missing\.wsdl\n$/],
  [['import', 'wsdl', 'ftp://example.com/service?wsdl'], /^accord import wsdl: ftp:\/\/example\.com\/service\?wsdl: not a local file: give the path of the WSDL/],
  [['import', 'wsdl', fixture('features/features.wsdl'), '--soap-version', '1.3'], /--soap-version must be 1\.1 or 1\.2, found "1\.3"/],
  [['import', 'wsdl', fixture('features/features.wsdl'), '--port', 'Nope'], /no SOAP port named "Nope"/],
])('exit 2 with a clear message: %j', async (argv, message) => {
  const r = await accord(...argv);
  expect(r.code).toBe(2);
  expect(r.err).toMatch(message);
  expect(existsSync(path.join(dir, 'missing.spec'))).toBe(false);
});

test('not XML and not a WSDL: exit 2, file and line first', async () => {
  writeFileSync(path.join(dir, 'notes.txt'), 'just text');
  writeFileSync(path.join(dir, 'pom.xml'), '<project/>');
  const a = await accord('import', 'wsdl', 'notes.txt');
  expect(a.code).toBe(2);
  expect(a.err).toMatch(/^accord import wsdl: notes\.txt: not a WSDL: it is not XML \(it starts with "just text"\)/);
  const b = await accord('import', 'wsdl', 'pom.xml');
  expect(b.code).toBe(2);
  expect(b.err).toMatch(/^accord import wsdl: .*pom\.xml:1: not a WSDL: the root element is <project>/);
});

test('`accord import` has the wsdl subcommand (others add theirs beside it)', async () => {
  const r = await accord('import', '--help');
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/wsdl \[options\] <wsdl_file_or_url>/);
});

test('-o - writes the contract to standard output and the summary to standard error', async () => {
  const r = await accord('import', 'wsdl', fixture('rpc-encoded/hello.wsdl'), '-o', '-');
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/^Feature: Hello_Service\n/);
  expect(r.err).toMatch(/^Hello_Service: 1 operation, 1 scenario, /);
});
