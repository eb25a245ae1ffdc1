import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContract } from '../../src/contract/load';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { corpusWsdl, withCorpus } from '../helpers/corpus';
import { wsdlFixtures } from './fixtures';
import { runPresetProject, writePresetProject } from '../helpers/jest-app';

/**
 * The user's path end to end: `accord import wsdl` output, served by `accord
 * stub`, tested by `jest --preset accord-contracts` (the generated contract's own Jest
 * tests), all passing.
 */

interface App {
  dir: string;
  stub: RunningStub;
}

/** A temp app whose contracts are the imports of `wsdls`, served by one stub (their paths differ, so no scenario answers another contract's request). */
async function app(wsdls: [string, string][]): Promise<App> {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-jest-wsdl-'));
  writePresetProject(dir);
  const files = wsdls.map(([name, wsdl]) => {
    const file = path.join(dir, `${name}.spec`);
    writeFileSync(file, importWsdl(wsdl).text);
    return file;
  });
  const paths = files.map((f) => loadContract(f).scenarios[0].request.path);
  expect(new Set(paths).size).toBe(paths.length);
  return { dir, stub: await startStub({ contracts: files, port: 0, log: () => undefined }) };
}

async function close(a: App | undefined): Promise<void> {
  await a?.stub.close();
  if (a) rmSync(a.dir, { recursive: true, force: true });
}

function jest(a: App): ReturnType<typeof runPresetProject> {
  return runPresetProject(a.dir, a.stub.url);
}

describe("the repository's WSDLs", () => {
  let a: App | undefined;
  beforeAll(async () => {
    a = await app(
      wsdlFixtures()
        .filter((f) => !f.name.startsWith('soap/'))
        .map((f) => [f.name.replace(/\W/g, '_'), f.file]),
    );
  });
  afterAll(() => close(a));

  test('jest --preset accord-contracts runs the imported contracts against their stub: every test passes', async () => {
    const r = await jest(a!);
    expect(r.output).toMatch(/Test Suites: 11 passed, 11 total/);
    // The skipped ones are fault scenarios, which the importer writes without an Examples row.
    expect(r.output).toMatch(/Tests: {7}4 skipped, 27 passed, 31 total/);
    expect(r.status).toBe(0);
  }, 180_000);
});

withCorpus('wsdl-corpus', 'five corpus WSDLs', () => {
  const FOLDERS = ['asmx-calculator', 'cxf-customerservice', 'savon-edialog', 'wsdl20-w3c-primer-greath', 'ihe-xds-iti41-ipf'];
  let a: App | undefined;
  beforeAll(async () => {
    a = await app(FOLDERS.map((f) => [f, corpusWsdl(f)]));
  });
  afterAll(() => close(a));

  test('jest --preset accord-contracts runs the imported contracts against their stub: every test passes', async () => {
    const r = await jest(a!);
    expect(r.output).toMatch(/Test Suites: 5 passed, 5 total/);
    expect(r.output).toMatch(/Tests: {7}2 skipped, 185 passed, 187 total/);
    expect(r.status).toBe(0);
  }, 180_000);
});
