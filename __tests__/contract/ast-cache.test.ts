import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cachedGherkin } from '../../src/contract/ast-cache';
import { usableFolder } from '../../src/files/cache-folder';
import { buildContract } from '../../src/contract/build';
import { parseGherkin } from '../../src/contract/gherkin';
import { parseContract } from '../../src/contract/load';

const ROOT = path.join(__dirname, '..', '..');
const PET = readFileSync(path.join(ROOT, 'contracts', 'soap', 'api_pet_v1.spec'), 'utf8');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-ast-cache-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const entries = () => readdirSync(dir).filter((n) => n.endsWith('.json'));

describe('the Gherkin AST cache', () => {
  it('stores a parsed text once and serves it back: the contract built from it equals a fresh parse', () => {
    const first = cachedGherkin(PET, 'pet.spec', dir);
    expect(entries()).toHaveLength(1);
    const again = cachedGherkin(PET, 'pet.spec', dir);
    expect(again).not.toBe(first); // read back from disk, not kept in memory
    expect(again).toEqual(JSON.parse(JSON.stringify(parseGherkin(PET, 'pet.spec'))));
    expect(buildContract(again, 'pet.spec')).toEqual(parseContract(PET, 'pet.spec'));
    expect(entries()).toHaveLength(1);
  });

  it('a changed text is parsed again and stored beside the old one', () => {
    cachedGherkin(PET, 'pet.spec', dir);
    const changed = PET.replace('Get a pet by id', 'Fetch a pet by id');
    expect(cachedGherkin(changed, 'pet.spec', dir).feature?.children.some((c) => c.scenario?.name === 'Fetch a pet by id')).toBe(true);
    expect(entries()).toHaveLength(2);
  });

  it('an entry whose stored text differs (a hash collision, a planted file) is not used', () => {
    cachedGherkin(PET, 'pet.spec', dir);
    const file = path.join(dir, entries()[0]);
    const entry = JSON.parse(readFileSync(file, 'utf8'));
    entry.doc.feature.name = 'planted';
    entry.text = 'another text';
    writeFileSync(file, JSON.stringify(entry));
    expect(cachedGherkin(PET, 'pet.spec', dir).feature?.name).toBe('Pet lookup over SOAP');
  });

  it('a broken entry (half written, not JSON) falls back to parsing and is replaced', () => {
    cachedGherkin(PET, 'pet.spec', dir);
    const file = path.join(dir, entries()[0]);
    writeFileSync(file, '{"format":1,"te');
    expect(cachedGherkin(PET, 'pet.spec', dir).feature?.name).toBe('Pet lookup over SOAP');
    expect(JSON.parse(readFileSync(file, 'utf8')).doc.feature.name).toBe('Pet lookup over SOAP');
  });

  it('a text that does not parse is reported as before and never stored', () => {
    expect(() => cachedGherkin('Feature: a\n  Scenario: s\n    Given x\nFeature: b\n', 'bad.spec', dir)).toThrow(
      expect.objectContaining({ message: expect.stringContaining('"Feature: b" starts a second Feature'), location: { file: 'bad.spec', line: 4, column: 1 } }),
    );
    expect(entries()).toHaveLength(0);
  });

  it('without a usable folder it parses every time', () => {
    expect(cachedGherkin(PET, 'pet.spec', null).feature?.name).toBe('Pet lookup over SOAP');
  });

  it('keeps at most 1000 entries, removing the oldest', () => {
    for (let i = 0; i < 1001; i++) writeFileSync(path.join(dir, `old-${i}.json`), '{}');
    cachedGherkin(PET, 'pet.spec', dir);
    expect(entries().length).toBeLessThanOrEqual(1000);
    expect(entries().length).toBeGreaterThanOrEqual(800);
  });
});

describe('which folders are used', () => {
  it('creates a missing folder, closed to others', () => {
    const made = path.join(dir, 'nested', 'cache');
    expect(usableFolder(made)).toBe(made);
  });

  const posix = typeof process.getuid === 'function' ? it : it.skip;
  posix('refuses a folder that others can write (anyone could plant ASTs there)', () => {
    const open = path.join(dir, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(usableFolder(open)).toBeNull();
  });

  posix('refuses a folder inside one that others can write, unless that one is sticky (as /tmp is)', () => {
    // Another user could rename the cache folder away and put theirs in its place.
    const shared = path.join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const inside = path.join(shared, 'cache');
    mkdirSync(inside, { mode: 0o700 });
    expect(usableFolder(inside)).toBeNull();
    expect(usableFolder(path.join(shared, 'a', 'b'))).toBeNull();
    chmodSync(shared, 0o1777);
    expect(usableFolder(inside)).toBe(inside);
  });

  posix('refuses a symbolic link in place of the folder', () => {
    const real = path.join(dir, 'real');
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, path.join(dir, 'link'));
    expect(usableFolder(path.join(dir, 'link'))).toBeNull();
  });

  it('refuses a file in place of the folder', () => {
    writeFileSync(path.join(dir, 'file'), '');
    expect(usableFolder(path.join(dir, 'file'))).toBeNull();
  });
});

describe('in a process (the built code)', () => {
  const script = `
    const { loadContract } = require(${JSON.stringify(path.join(ROOT, 'dist', 'contract', 'load.js'))});
    const c = loadContract(${JSON.stringify(path.join(ROOT, 'contracts', 'soap', 'api_pet_v1.spec'))});
    const gherkinLoaded = Object.keys(require.cache).some((k) => k.includes('@cucumber') && k.endsWith('.js'));
    console.log(JSON.stringify({ scenarios: c.scenarios.length, gherkinLoaded }));`;
  const run = (env: Record<string, string>) => {
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, ...env } });
    if (r.status !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout) as { scenarios: number; gherkinLoaded: boolean };
  };

  it('a warm cache spares loading the Gherkin parser at all (the point of it: ~30 ms of every start)', () => {
    expect(run({ ACCORD_CACHE_DIR: dir })).toEqual({ scenarios: 3, gherkinLoaded: true });
    expect(run({ ACCORD_CACHE_DIR: dir })).toEqual({ scenarios: 3, gherkinLoaded: false });
  });

  it('the bundled command parses through one vendored file, not the ~60 modules of the Gherkin packages', () => {
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `const lib = require(${JSON.stringify(path.join(ROOT, 'dist', 'gherkin-lib.js'))});
         const doc = new lib.Parser(new lib.AstBuilder(lib.IdGenerator.incrementing()), new lib.GherkinClassicTokenMatcher()).parse('Feature: f\\n  Scenario: s\\n    When GET /x\\n');
         console.log(JSON.stringify({ name: doc.feature.name, loaded: Object.keys(require.cache).filter((k) => k.includes('node_modules')).length }));`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ name: 'f', loaded: 0 });
    expect(readFileSync(path.join(ROOT, 'dist', 'accord-cli.js'), 'utf8')).toContain('require("./gherkin-lib")');
  });

  it('ACCORD_CACHE=0 turns it off', () => {
    run({ ACCORD_CACHE_DIR: dir });
    expect(run({ ACCORD_CACHE_DIR: dir, ACCORD_CACHE: '0' })).toEqual({ scenarios: 3, gherkinLoaded: true });
  });
});
