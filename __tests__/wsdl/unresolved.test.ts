import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contractCoverage, findWsdl, formatCoverage, readOutline } from '../../src/runner/coverage';
import { startStub } from '../../src/stub';
import { startStubProcess } from '../stub/helpers';
import { runAccord } from '../helpers/cli-run';

/**
 * A WSDL whose imported schema is gone: every command that reads a WSDL says so, one line per
 * import, with where it was looked for; each refuses it (exit 2) unless --allow-unresolved, which
 * writes or serves it with one warning line per node that is (anything).
 */
const FIXTURE = path.join(__dirname, '..', 'fixtures', 'wsdl', 'rpc-literal');
const IMPORT_LINE =
  /^accord import wsdl: wsdl\/greeter\.wsdl:13: import \.\/xsd\/header\.xsd not loaded \(no such file, looked for at wsdl\/xsd\/header\.xsd\): what it declares is typed \(anything\)$/m;
const WARNING = /^accord import wsdl: warning: wsdl\/greeter\.wsdl: node h:trace is \(anything\), accepting any content: element \{urn:accord:rpclit:headers\}trace not found$/m;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-unresolved-'));
  cpSync(FIXTURE, path.join(dir, 'wsdl'), { recursive: true });
  rmSync(path.join(dir, 'wsdl', 'xsd', 'header.xsd'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const accord = (...argv: string[]) => runAccord(argv, dir);

test('import wsdl refuses a partial import by default: exit 2, each import named with where it was looked for and how to fix it, nothing written', async () => {
  const refused = await accord('import', 'wsdl', 'wsdl/greeter.wsdl', '-o', 'greeter.spec');
  expect(refused.code).toBe(2);
  expect(refused.out).toBe('');
  expect(refused.err).toMatch(
    /^accord import wsdl: wsdl\/greeter\.wsdl can only be imported in part; nothing written:\n {2}wsdl\/greeter\.wsdl:13: import \.\/xsd\/header\.xsd not loaded \(no such file, looked for at wsdl\/xsd\/header\.xsd\)/,
  );
  expect(refused.err).toMatch(
    /^ {2}put each file where it was looked for, or import the WSDL by its URL .*; --allow-unresolved accepts the rest as \(anything\), which takes any content$/m,
  );
  expect(existsSync(path.join(dir, 'greeter.spec'))).toBe(false);
});

test('import wsdl --allow-unresolved writes what it can, and says on standard error which import was not loaded and each node that is (anything)', async () => {
  const r = await accord('import', 'wsdl', 'wsdl/greeter.wsdl', '-o', 'greeter.spec', '--allow-unresolved');
  expect(r.code).toBe(0);
  expect(existsSync(path.join(dir, 'greeter.spec'))).toBe(true);
  expect(r.out).toMatch(/^GreeterService: .*, 1 import unresolved$/m);
  expect(r.err).toMatch(IMPORT_LINE);
  expect(r.err).toMatch(/^accord import wsdl: wsdl\/greeter\.wsdl: 1 declaration not found, the nodes it types are \(anything\): element \{urn:accord:rpclit:headers\}trace$/m);
  expect(r.err).toMatch(WARNING);
  expect(r.err.trim().split('\n')).toHaveLength(3);
  // The contract on standard output: the lines stay on standard error.
  const piped = await accord('import', 'wsdl', 'wsdl/greeter.wsdl', '-o', '-', '--allow-unresolved');
  expect(piped.code).toBe(0);
  expect(piped.out).not.toMatch(/not loaded/);
  expect(piped.err).toMatch(IMPORT_LINE);
});

test('import wsdl --strict refuses a partial import: exit 2, the imports listed, nothing written', async () => {
  const r = await accord('import', 'wsdl', 'wsdl/greeter.wsdl', '-o', 'greeter.spec', '--strict');
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toMatch(
    /^accord import wsdl: wsdl\/greeter\.wsdl can only be imported in part; nothing written:\n {2}wsdl\/greeter\.wsdl:13: import \.\/xsd\/header\.xsd not loaded/,
  );
  expect(existsSync(path.join(dir, 'greeter.spec'))).toBe(false);
  // A whole import passes --strict.
  cpSync(path.join(FIXTURE, 'xsd', 'header.xsd'), path.join(dir, 'wsdl', 'xsd', 'header.xsd'));
  const whole = await accord('import', 'wsdl', 'wsdl/greeter.wsdl', '-o', 'greeter.spec', '--strict');
  expect(whole.err).toBe('');
  expect(whole.code).toBe(0);
});

test('import wsdl refuses a node typed (anything) because its declaration is nowhere, with no import missing', async () => {
  // No schemaLocation at all: nothing is unresolved, yet the header element is not declared anywhere.
  const wsdl = path.join(dir, 'wsdl', 'greeter.wsdl');
  writeFileSync(wsdl, readFileSync(wsdl, 'utf8').replace(/\s+schemaLocation="\.\/xsd\/header\.xsd"/, ''));
  const plain = await accord('import', 'wsdl', 'wsdl/greeter.wsdl', '-o', 'greeter.spec', '--allow-unresolved');
  expect(plain.code).toBe(0);
  expect(plain.err).toMatch(WARNING);
  expect(plain.err).toMatch(/^accord import wsdl: wsdl\/greeter\.wsdl: 1 declaration not found, the nodes it types are \(anything\): element \{urn:accord:rpclit:headers\}trace$/m);
  const strict = await accord('import', 'wsdl', 'wsdl/greeter.wsdl', '-o', 'strict.spec');
  expect(strict.code).toBe(2);
  expect(strict.err).toMatch(/^ {2}wsdl\/greeter\.wsdl: 1 declaration not found/m);
  expect(existsSync(path.join(dir, 'strict.spec'))).toBe(false);
});

test('a hostile location is shown escaped and cut', async () => {
  const wsdl = path.join(dir, 'wsdl', 'greeter.wsdl');
  writeFileSync(wsdl, readFileSync(wsdl, 'utf8').replace('./xsd/header.xsd', `./x&#x202e;${'a'.repeat(300)}.xsd`));
  const r = await accord('import', 'wsdl', 'wsdl/greeter.wsdl', '-o', 'greeter.spec');
  expect(r.code).toBe(2);
  expect(r.err).not.toContain('\u202e');
  expect(r.err).toMatch(/import \.\/x\\u\{202e\}a+… \(\d+ more characters\) not loaded/);
});

const NOT_LOADED = /greeter\.wsdl:13: import \.\/xsd\/header\.xsd not loaded \(no such file, looked for at .*wsdl\/xsd\/header\.xsd\): what it declares is typed \(anything\)$/;

test('accord stub x.wsdl refuses a partial WSDL; with --allow-unresolved it says at start, once, which import was not loaded and each (anything) node (startStub and the command)', async () => {
  const refused = await startStub({ contracts: path.join(dir, 'wsdl', 'greeter.wsdl'), log: () => undefined }).then(
    () => 'started',
    (e: Error) => e.message,
  );
  expect(refused).toMatch(/can only be imported in part; not served:/);
  const cli = await accord('stub', 'wsdl/greeter.wsdl', '--port', '0');
  expect(cli.code).toBe(2);
  expect(cli.err).toMatch(/^accord stub: .*wsdl\/greeter\.wsdl: can only be imported in part; not served:\n {2}.*wsdl\/greeter\.wsdl:13: import \.\/xsd\/header\.xsd not loaded/);
  const log: string[] = [];
  const stub = await startStub({ contracts: path.join(dir, 'wsdl', 'greeter.wsdl'), log: (l) => log.push(l), allowUnresolved: true });
  await stub.close();
  expect(log).toHaveLength(3);
  expect(log[0]).toMatch(/^accord stub: .*wsdl\/greeter\.wsdl:13: import \.\/xsd\/header\.xsd not loaded/);
  expect(log[0]).toMatch(NOT_LOADED);
  expect(log[1]).toMatch(/^accord stub: .*wsdl\/greeter\.wsdl: 1 declaration not found/);
  expect(log[2]).toMatch(
    /^accord stub: warning: .*wsdl\/greeter\.wsdl: node h:trace is \(anything\), accepting any content: element \{urn:accord:rpclit:headers\}trace not found$/,
  );
  const child = await startStubProcess(['--port', '0', '--allow-unresolved', path.join(dir, 'wsdl', 'greeter.wsdl')]);
  child.child.kill('SIGTERM');
  await child.exited;
  const said = child
    .stderr()
    .split('\n')
    .filter((l) => /not loaded/.test(l));
  expect(said).toHaveLength(1);
  expect(said[0]).toMatch(NOT_LOADED);
}, 30_000);

test('accord validate --wsdl refuses a partial WSDL; with --allow-unresolved it says which import was not loaded, on standard error, and still gives its verdict', async () => {
  writeFileSync(path.join(dir, 'hello.xml'), '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><x/></soap:Body></soap:Envelope>');
  const refused = await accord('validate', 'hello.xml', '--wsdl', 'wsdl/greeter.wsdl');
  expect(refused.code).toBe(2);
  expect(refused.err).toMatch(/^accord validate: --wsdl wsdl\/greeter\.wsdl can only be imported in part; nothing validated:$/m);
  const r = await accord('validate', 'hello.xml', '--wsdl', 'wsdl/greeter.wsdl', '--allow-unresolved');
  expect(r.err).toMatch(
    /^accord validate: --wsdl: wsdl\/greeter\.wsdl:13: import \.\/xsd\/header\.xsd not loaded \(no such file, looked for at wsdl\/xsd\/header\.xsd\): what it declares is typed \(anything\)$/m,
  );
  expect(r.err).toMatch(/^accord validate: --wsdl: warning: wsdl\/greeter\.wsdl: node h:trace is \(anything\)/m);
  expect(r.out).not.toMatch(/not loaded/);
  expect(r.code).toBe(1);
});

test('accord compatible refuses a WSDL it can import only in part: exit 2, the import named, no verdict', async () => {
  cpSync(path.join(FIXTURE), path.join(dir, 'whole'), { recursive: true });
  const r = await accord('compatible', 'whole/greeter.wsdl', 'wsdl/greeter.wsdl');
  expect(r.code).toBe(2);
  expect(r.out).not.toMatch(/compatible/i);
  expect(r.err).toMatch(/wsdl\/greeter\.wsdl: can only be imported in part, and \(anything\) takes every change as compatible: no verdict/);
  expect(r.err).toMatch(/^ {2}wsdl\/greeter\.wsdl:13: import \.\/xsd\/header\.xsd not loaded \(no such file, looked for at .*wsdl\/xsd\/header\.xsd\)/m);
  // Either side.
  const older = await accord('compatible', 'wsdl/greeter.wsdl', 'whole/greeter.wsdl');
  expect(older.code).toBe(2);
  // The same partial WSDL as both versions: said once.
  const same = await accord('compatible', 'wsdl/greeter.wsdl', 'wsdl/greeter.wsdl');
  expect(same.code).toBe(2);
  expect(same.err.match(/can only be imported in part/g)).toHaveLength(1);
  // Whole on both sides: a verdict.
  const whole = await accord('compatible', 'whole/greeter.wsdl', 'whole/greeter.wsdl');
  expect(whole.code).toBe(0);
});

test('accord compatible --allow-unresolved (or its older name --allow-partial) compares what was loaded and lists what was not', async () => {
  // Both versions miss the same schema; the newer one also adds a required response node elsewhere.
  cpSync(path.join(dir, 'wsdl'), path.join(dir, 'newer'), { recursive: true });
  const file = path.join(dir, 'newer', 'greeter.wsdl');
  const text = readFileSync(file, 'utf8');
  const changed = text.replace(
    '<xsd:element name="count" type="xsd:short"/>',
    '<xsd:element name="count" type="xsd:short"/>\n          <xsd:element name="extra" type="xsd:string"/>',
  );
  expect(changed).not.toBe(text);
  writeFileSync(file, changed);
  const same = await accord('compatible', 'wsdl/greeter.wsdl', 'wsdl/greeter.wsdl', '--allow-partial');
  expect(same.code).toBe(0);
  // Listed once in the report (both versions name the import alike), not again on standard error.
  expect(same.out.match(/^Not compared \(--allow-partial\): wsdl\/greeter\.wsdl:13: import \.\/xsd\/header\.xsd not loaded \(no such file/gm)).toHaveLength(1);
  // And each node that is (anything), once.
  expect(same.out.match(/^Not compared \(--allow-partial\): wsdl\/greeter\.wsdl: node h:trace is \(anything\)/gm)).toHaveLength(1);
  const shared = await accord('compatible', 'wsdl/greeter.wsdl', 'wsdl/greeter.wsdl', '--allow-unresolved');
  expect([shared.code, shared.out]).toEqual([0, same.out]);
  expect(same.out).toMatch(/The newer contract is backward compatible/);
  expect(same.err).toBe('');
  const broken = await accord('compatible', 'wsdl/greeter.wsdl', 'newer/greeter.wsdl', '--allow-partial');
  expect(broken.code).toBe(1);
  expect(broken.out).toMatch(/extra/);
  expect(broken.out).toMatch(/^Not compared \(--allow-partial\): newer\/greeter\.wsdl:13: import/m);
  // A machine format carries the list, and standard error says it for the CI log.
  const json = await accord('compatible', 'wsdl/greeter.wsdl', 'newer/greeter.wsdl', '--allow-partial', '--json');
  expect(json.code).toBe(1);
  expect(JSON.parse(json.out).files[0].notCompared).toEqual(expect.arrayContaining([expect.stringMatching(/greeter\.wsdl:13: import \.\/xsd\/header\.xsd not loaded/)]));
  expect(json.err).toMatch(/^accord compatible: warning: .*compared in part \(--allow-partial\), not compared: .*header\.xsd not loaded/m);
  // The refusal says how to go on.
  const refused = await accord('compatible', 'wsdl/greeter.wsdl', 'newer/greeter.wsdl');
  expect(refused.code).toBe(2);
  expect(refused.err).toMatch(/or compare the rest with --allow-unresolved/);
});

test("the coverage summary of a Jest run says which import of the contract's WSDL was not loaded", () => {
  const spec = path.join(dir, 'wsdl', 'greeter.spec');
  const source = readFileSync(spec, 'utf8');
  const found = findWsdl(spec, source, dir);
  const summary = formatCoverage([contractCoverage(spec, readOutline(spec, source), [], found)], dir);
  expect(summary).toMatch(
    /^ {4}not read: wsdl\/greeter\.wsdl:13: import \.\/xsd\/header\.xsd not loaded \(no such file, looked for at wsdl\/xsd\/header\.xsd\): what it declares is typed \(anything\)$/m,
  );
  cpSync(path.join(FIXTURE, 'xsd', 'header.xsd'), path.join(dir, 'wsdl', 'xsd', 'header.xsd'));
  const whole = formatCoverage([contractCoverage(spec, readOutline(spec, source), [], findWsdl(spec, source, dir))], dir);
  expect(whole).not.toMatch(/not read/);
});
