import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContract } from '../../src/contract/load';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { corpusFile } from './corpus';
import { childEnv, plain } from '../helpers/child-env';

/**
 * The user's path end to end: `accord import wsdl` output, served by `accord
 * stub`, tested by `jest --preset accord-contracts` (the generated contract's own Jest
 * tests), all passing.
 */
const REPO = path.join(__dirname, '..', '..');
const FOLDERS = ['asmx-calculator', 'cxf-customerservice', 'savon-edialog', 'wsdl20-w3c-primer-greath', 'ihe-xds-iti41-ipf'];
let dir: string;
let stub: RunningStub;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-jest-wsdl-'));
  writeFileSync(path.join(dir, 'package.json'), '{"name":"app","private":true}');
  writeFileSync(path.join(dir, 'jest.config.js'), `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), rootDir: __dirname };\n`);
  const files = FOLDERS.map((f) => {
    const file = path.join(dir, `${f}.spec`);
    writeFileSync(file, importWsdl(corpusFile(f)).text);
    return file;
  });
  // One stub serves them all: their paths differ, so no scenario answers another contract's request.
  const paths = files.map((f) => loadContract(f).scenarios[0].request.path);
  expect(new Set(paths).size).toBe(paths.length);
  stub = await startStub({ contracts: files, port: 0, log: () => undefined });
});

afterAll(async () => {
  await stub?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function jest(): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [require.resolve('jest/bin/jest'), '--ci'], { cwd: dir, env: childEnv({ ACCORD_BASE_URL: stub.url }) });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, output: plain(output) }));
  });
}

test('jest --preset accord-contracts runs the imported contracts against their stub: every test passes', async () => {
  const r = await jest();
  expect(r.output).toMatch(/Test Suites: 5 passed, 5 total/);
  expect(r.output).toMatch(/Tests: {7}185 passed, 185 total/);
  expect(r.code).toBe(0);
}, 180_000);
