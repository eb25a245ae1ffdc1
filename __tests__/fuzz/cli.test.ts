import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../../src/cli/main';
import { runCli } from '../stub/helpers';
import { TempRepo } from '../compat/git-repo';
import { mutant, seeded } from '../helpers/mutate';
import { badOutput, FUZZ_SEED, fuzzCases } from './oracle';

/**
 * Every CLI command, fed damaged arguments and damaged files, in-process through `run(argv,
 * io)` (thousands of child processes would take minutes): the exit code is 0, 1 or 2, and
 * nothing printed holds an internal error, a stack trace or a raw control character.
 * `accord stub` is always pointed at a port in use as its last option, so a case that loads
 * its contracts stops at "cannot listen" instead of serving. `compatible git` loads execa, an
 * ES module Jest cannot import in-process: its cases are a few child processes.
 */
const ROOT = path.join(__dirname, '..', '..');
const CASES = fuzzCases(1500);

let root: string;
let dir: string;
let repo: TempRepo;
let busy: Server;
let busyPort: string;

const files = {
  pet: path.join(ROOT, 'contracts', 'soap', 'api_pet_v1.spec'),
  math: path.join(ROOT, 'contracts', 'math', 'api_math_v1.spec'),
  // A repository fixture, not a corpus file: the fuzz runs on a fresh clone with nothing beside it.
  wsdl: path.join(ROOT, '__tests__', 'fixtures', 'soap', 'petstore.wsdl'),
  log: path.join(ROOT, '__tests__', 'fixtures', 'logs', 'spring-ws.log'),
  har: path.join(ROOT, '__tests__', 'fixtures', 'logs', 'recording.har'),
};

beforeAll(async () => {
  // The command lines run one folder down, so that ".." is still this test's own folder.
  root = mkdtempSync(path.join(tmpdir(), 'accord-fuzz-cli-'));
  dir = path.join(root, 'cwd');
  mkdirSync(dir);
  for (const [name, file] of Object.entries(files)) copyFileSync(file, path.join(dir, `${name}${path.extname(file)}`));
  repo = new TempRepo();
  repo.write('c.spec', readFileSync(files.math, 'utf8'));
  repo.git('add', '.');
  repo.git('commit', '-q', '-m', 'one');
  repo.write('c.spec', readFileSync(files.math, 'utf8').replace('(number)', '(string)'));
  repo.git('commit', '-q', '-am', 'two');
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = String((busy.address() as { port: number }).port);
});

afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  repo?.remove();
  await new Promise((resolve) => busy.close(resolve));
});

/** Tokens a damaged command line may hold. No "-" alone (standard input) and no device files (read-side limits are another guard's). */
const TOKENS = [
  '',
  ' ',
  '--',
  '-x',
  '--port',
  '0',
  '65536',
  '-1',
  '1e3',
  '--max-body-bytes',
  '--json',
  '--force',
  '-o',
  'out.spec',
  '--soap-version',
  '1.3',
  '--host',
  '::1',
  'nosuch.spec',
  '.',
  '..',
  'pet.spec',
  'pet.wsdl',
  'log.log',
  'HEAD',
  'HEAD~9',
  ':/two',
  'main..x',
  '\u0001',
  '\u001b[2J',
  'é',
  'a\nb',
  'x'.repeat(300),
  '--examples',
  '--max-examples',
  '--redact',
  '--path',
  '--include',
  '--no-verify',
  '--skip-invalid',
  '--watch',
  '--cors',
  '-v',
  'git',
  'file',
  'commits',
  'wsdl',
  'log',
];

const PALETTE = ['<', '>', '/', '"', '(', ')', '*', '?', '\n', '\t', '|', ':', '(number)', '(Pet)', 'Scenario:', 'Given', '"""', '\u0000', '\u001b', '<!DOCTYPE x>', '&', 'é'];

function commandLines(): string[][] {
  return [
    ['stub', 'pet.spec'],
    ['stub', 'pet.wsdl'],
    ['stub', 'damaged.spec'],
    ['import', 'wsdl', 'pet.wsdl', '-o', 'out.spec', '--force'],
    ['import', 'wsdl', 'damaged.wsdl', '-o', 'out.spec', '--force'],
    ['import', 'log', 'log.log', '-o', 'out.spec', '--force'],
    ['import', 'log', 'har.har', '-o', 'out.spec', '--force', '--examples'],
    ['import', 'log', 'damaged.log', '-o', 'out.spec', '--force', '--skip-invalid'],
    ['compatible', 'pet.spec', 'damaged.spec'],
    ['compatible', 'math.spec', 'pet.spec', '--json'],
    ['--version'],
    ['--help'],
    ['nosuchcommand'],
  ];
}

function damage(argv: string[], r: () => number): string[] {
  const out = [...argv];
  for (let k = Math.floor(r() * 3); k > 0; k--) {
    const at = Math.floor(r() * (out.length + 1));
    const token = TOKENS[Math.floor(r() * TOKENS.length)];
    switch (Math.floor(r() * 4)) {
      case 0:
        out.splice(at, 1);
        break;
      case 1:
        out.splice(at, 0, token);
        break;
      case 2:
        out[Math.min(at, out.length - 1)] = token;
        break;
      default:
        out.splice(at, 0, ...out.slice(at, at + 2));
    }
  }
  // Whatever else it says, a stub never gets to serve (see above); `--` would make the port a path.
  if (out[0] === 'stub' || out.includes('stub')) return [...out.filter((a) => a !== '--'), '--port', busyPort];
  return out;
}

test(`${CASES} damaged command lines and input files: exit 0, 1 or 2, no internal error, no stack trace, no raw control character`, async () => {
  const r = seeded(FUZZ_SEED);
  const sources = { spec: readFileSync(files.pet, 'utf8'), wsdl: readFileSync(files.wsdl, 'utf8'), log: readFileSync(files.log, 'utf8') };
  const lines = commandLines();
  const codes = new Map<number, number>();
  for (let i = 0; i < CASES; i++) {
    // A fresh damaged file now and then: what the "damaged" command lines read.
    if (i % 10 === 0) {
      writeFileSync(path.join(dir, 'damaged.spec'), mutant(sources.spec, r, PALETTE));
      writeFileSync(path.join(dir, 'damaged.wsdl'), mutant(sources.wsdl, r, PALETTE));
      writeFileSync(path.join(dir, 'damaged.log'), mutant(sources.log, r, PALETTE));
    }
    const argv = damage(lines[Math.floor(r() * lines.length)], r);
    let out = '';
    // Only the entry point may end the process: a command that calls process.exit inside run() would end Jest.
    const exit = process.exit;
    process.exit = ((c?: number) => {
      throw new Error(`process.exit(${c}) called inside run() by ${JSON.stringify(argv)}`);
    }) as typeof process.exit;
    let code: number;
    try {
      code = await run(argv, { stdout: (s) => void (out += s), stderr: (s) => void (out += s), cwd: dir });
    } finally {
      process.exit = exit;
    }
    codes.set(code, (codes.get(code) ?? 0) + 1);
    const bad = ![0, 1, 2].includes(code) ? `exit code ${code}` : badOutput(out);
    if (bad) throw new Error(`case ${i} (seed ${FUZZ_SEED}): ${bad}\nargv: ${JSON.stringify(argv)}\noutput:\n${JSON.stringify(out.slice(0, 3000))}`);
  }
  // Both sides were exercised: commands that worked and commands refused.
  expect(codes.get(0) ?? 0).toBeGreaterThan(CASES / 50);
  expect(codes.get(2) ?? 0).toBeGreaterThan(CASES / 10);
});

test('damaged `compatible git` command lines (child processes): exit 0, 1 or 2, no internal error, no stack trace, no raw control character', async () => {
  const r = seeded(FUZZ_SEED + 1);
  const file = path.join(repo.dir, 'c.spec');
  const lines = [
    ['compatible', 'git', 'file', file],
    ['compatible', 'git', 'commits', file, 'HEAD', 'HEAD~1'],
  ];
  for (let i = 0; i < fuzzCases(12) / (process.env.FUZZ_CASES ? 20 : 1); i++) {
    const argv = damage(lines[i % 2], r);
    const res = await runCli(argv);
    const out = res.stdout + res.stderr;
    const bad = ![0, 1, 2].includes(res.code ?? -1) ? `exit code ${res.code}` : badOutput(out);
    if (bad) throw new Error(`git case ${i} (seed ${FUZZ_SEED + 1}): ${bad}\nargv: ${JSON.stringify(argv)}\noutput:\n${JSON.stringify(out.slice(0, 3000))}`);
  }
});
