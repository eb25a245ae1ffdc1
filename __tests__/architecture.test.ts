import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * docs/architecture.md, kept: every import in src/ (static, type-only,
 * require() and import() alike) goes down the layers or stays in its own
 * module, and no two files import each other, directly or round a loop.
 */

const SRC = path.resolve(__dirname, '..', 'src');

/** The layers of docs/architecture.md, low to high. */
const LAYER: Record<string, number> = {
  'limits.ts': 0,
  'errors.ts': 0,
  'suggest.ts': 0,
  'printable.ts': 0,
  'ci-text.ts': 1,
  xml: 1,
  json: 1,
  files: 1,
  html: 1,
  pattern: 2,
  contract: 3,
  http: 4,
  // The importers: formats turned into contracts, used by the jobs and the CLI (src/soapui: the SoapUI importer, being written).
  wsdl: 5,
  logs: 5,
  soapui: 5,
  // The jobs.
  runner: 6,
  stub: 6,
  proxy: 6,
  compat: 6,
  shared: 6,
  example: 6,
  validate: 6,
  cli: 7,
  'index.ts': 8,
  'preset-api.ts': 8,
};

/** Imports between modules of one layer that docs/architecture.md allows, each with its reason there. */
const SIDEWAYS = new Set(['shared -> compat', 'runner -> stub', 'soapui -> wsdl']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** Relative specifiers a file imports, in every form TypeScript and Node know. */
function importsOf(text: string): string[] {
  const found: string[] = [];
  const forms = [/\bfrom\s+'(\.[^']*)'/g, /\brequire\(\s*'(\.[^']*)'\s*\)/g, /\bimport\(\s*'(\.[^']*)'\s*[,)]/g, /^import\s+'(\.[^']*)'/gm];
  for (const re of forms) for (const m of text.matchAll(re)) found.push(m[1]);
  return found;
}

function resolveImport(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
    if (files.includes(candidate)) return candidate;
  }
  return undefined;
}

function moduleOf(file: string): string {
  return path.relative(SRC, file).split(path.sep)[0];
}

const files = sourceFiles(SRC);
const graph = new Map<string, string[]>(files.map((f) => [f, importsOf(readFileSync(f, 'utf8')).flatMap((s) => resolveImport(f, s) ?? [])]));
const rel = (f: string) => path.relative(SRC, f);

test('every file of src/ belongs to a layer', () => {
  expect(files.map(moduleOf).filter((m) => LAYER[m] === undefined)).toEqual([]);
});

test('imports never go up the layers, nor sideways between modules unless allowed', () => {
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const a = moduleOf(file);
    for (const t of targets) {
      const b = moduleOf(t);
      if (a === b) continue;
      if (LAYER[b] > LAYER[a]) wrong.push(`${rel(file)} imports ${rel(t)} (layer ${b} is above ${a})`);
      else if (LAYER[b] === LAYER[a] && !SIDEWAYS.has(`${a} -> ${b}`)) wrong.push(`${rel(file)} imports ${rel(t)} (${a} and ${b} are one layer)`);
    }
  }
  expect(wrong).toEqual([]);
});

test('no import cycles, type-only imports included', () => {
  // Tarjan's strongly connected components: a component of more than one file is a cycle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(rel(w));
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  expect(cycles).toEqual([]);
});

/**
 * Inside src/stub (docs/architecture.md, "The stub's sub-folders"): answer/ makes an answer from a route, decide/
 * (the route table, dispatch, decide()) works out who answers, admin/ keeps expectations, journal and state and
 * serves the stub's API, client/ is the consumer's side. Each imports only the folders below it; none imports
 * server.ts, which sits on top.
 */
const STUB_ORDER: Record<string, number> = { answer: 0, decide: 1, admin: 2, client: 3 };

function stubFolderOf(file: string): string | undefined {
  const parts = path.relative(path.join(SRC, 'stub'), file).split(path.sep);
  return parts.length > 1 && !parts[0].startsWith('..') ? parts[0] : undefined;
}

function stubOrderWrong(edges: Iterable<[string, string[]]>): string[] {
  const wrong: string[] = [];
  for (const [file, targets] of edges) {
    const a = stubFolderOf(file);
    if (a === undefined) continue;
    for (const t of targets) {
      if (t === path.join(SRC, 'stub', 'server.ts')) wrong.push(`${rel(file)} imports ${rel(t)} (server.ts is above every sub-folder)`);
      const b = stubFolderOf(t);
      if (b === undefined || b === a) continue;
      if (STUB_ORDER[a] === undefined || STUB_ORDER[b] === undefined) wrong.push(`${rel(file)} imports ${rel(t)} (stub/${a} or stub/${b} is in no place of the order)`);
      else if (STUB_ORDER[b] > STUB_ORDER[a]) wrong.push(`${rel(file)} imports ${rel(t)} (stub/${b} is above stub/${a})`);
    }
  }
  return wrong;
}

test("the stub's sub-folders import only the ones below them: answer < decide < admin < client", () => {
  expect(stubOrderWrong(graph)).toEqual([]);
  // The check says "not fine" when it must: an answer/ file importing decide/, an admin/ file importing server.ts.
  const stub = (f: string) => path.join(SRC, 'stub', f);
  expect(stubOrderWrong([[stub('answer/respond.ts'), [stub('decide/route.ts')]]])).toEqual([
    'stub/answer/respond.ts imports stub/decide/route.ts (stub/decide is above stub/answer)',
  ]);
  expect(stubOrderWrong([[stub('admin/api.ts'), [stub('server.ts')]]])).toHaveLength(1);
  expect(stubOrderWrong([[stub('decide/decide.ts'), [stub('answer/respond.ts'), stub('cors.ts')]]])).toEqual([]);
  // Every sub-folder of src/stub has its place.
  const folders = readdirSync(path.join(SRC, 'stub'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  expect(folders.filter((f) => STUB_ORDER[f] === undefined)).toEqual([]);
});

test('the checks see the imports they are meant to see', () => {
  // The scanner itself: each form of import is found, so an empty list above means something.
  const sample = "import a from './a';\nimport type { B } from '../b';\nconst c = require('./c');\ntype D = typeof import('./d');\nimport './e';";
  expect(importsOf(sample).sort()).toEqual(['../b', './a', './c', './d', './e']);
  expect([...graph.values()].flat().length).toBeGreaterThan(200);
});

/*
 * Rule 4 (limits live in src/limits.ts) and one home for the SOAP envelope namespaces, kept by
 * reading the source: a size in mebibytes written anywhere else, or the namespace URIs written
 * again, fails here. The exceptions say why.
 */
const LIMIT_FILES = new Set(['limits.ts', 'logs/limits.ts']);
const MEBIBYTES_ELSEWHERE: Record<string, string> = {
  'files/read.ts': 'formats a size for a message (n / (1024 * 1024)), no bound',
};

test('sizes are bounded in src/limits.ts only', () => {
  const found = files.filter((f) => !LIMIT_FILES.has(rel(f)) && !(rel(f) in MEBIBYTES_ELSEWHERE) && /\b1024\s*\*\s*1024\b/.test(readFileSync(f, 'utf8')));
  expect(found.map(rel)).toEqual([]);
  for (const f of Object.keys(MEBIBYTES_ELSEWHERE)) expect(readFileSync(path.join(SRC, f), 'utf8')).toMatch(/\b1024\s*\*\s*1024\b/);
});

test('the SOAP envelope namespaces are written once (xml/bookkeeping.ts)', () => {
  const uris = ["'http://schemas.xmlsoap.org/soap/envelope/'", "'http://www.w3.org/2003/05/soap-envelope'"];
  const found = files.filter((f) => rel(f) !== path.join('xml', 'bookkeeping.ts') && uris.some((u) => readFileSync(f, 'utf8').includes(u)));
  expect(found.map(rel)).toEqual([]);
});

/*
 * Rule 5 (errors.ts): a user's error is an AccordError, a bug an InternalError, a walk that ends early
 * a Stop, and errors found together are thrown together by throwGathered. Kept by reading the source:
 * another class extending Error, a plain `throw new Error(`, or a CompositeAccordError built by hand
 * fails here. The exceptions say why.
 */
const ERROR_CLASSES_ELSEWHERE: Record<string, string> = {
  'json/parse.ts': "JsonTooDeep: parseJson's refusal of its input, thrown as JSON.parse throws SyntaxError; readJson turns both into a value",
  'cli/exit.ts': "ExitError: a command's exit code, carried to the CLI's door (run), the one place that ends the process",
};
const COMPOSITES_ELSEWHERE: Record<string, string> = {
  'compat/wsdl-versions.ts': "re-places each error of a contract made from a WSDL on the WSDL's own lines, keeping them one composite",
};

test('control flow and errors take the forms of errors.ts', () => {
  const text = (f: string) => readFileSync(f, 'utf8');
  const others = files.filter((f) => rel(f) !== 'errors.ts');
  const classes = others.filter((f) => !(rel(f) in ERROR_CLASSES_ELSEWHERE) && /\bclass\s+\w+\s+extends\s+Error\b/.test(text(f)));
  expect(classes.map(rel)).toEqual([]);
  const plain = others.filter((f) => /\bthrow\s+new\s+Error\s*\(/.test(text(f)));
  expect(plain.map(rel)).toEqual([]);
  const composites = others.filter((f) => !(rel(f) in COMPOSITES_ELSEWHERE) && /\bnew\s+CompositeAccordError\s*\(/.test(text(f)));
  expect(composites.map(rel)).toEqual([]);
  for (const f of Object.keys(ERROR_CLASSES_ELSEWHERE)) expect(text(path.join(SRC, f))).toMatch(/\bclass\s+\w+\s+extends\s+Error\b/);
  for (const f of Object.keys(COMPOSITES_ELSEWHERE)) expect(text(path.join(SRC, f))).toMatch(/\bnew\s+CompositeAccordError\s*\(/);
});

/*
 * Inside src/pattern (docs/architecture.md, "Inside src/pattern"): the parts in an order, low to high,
 * kept as the layers are. A part is a sub-folder, or a top-level file: `types.ts` and `random.ts` are
 * parts of their own at the bottom, every other top-level file is one part, "(top-level)". A part
 * imports only from itself and from lower ranks; two parts of one rank do not import each other.
 */
const PATTERN = path.join(SRC, 'pattern');
const PATTERN_RANK: Record<string, number> = {
  'types.ts': 0,
  'random.ts': 0,
  scalars: 1,
  '(top-level)': 2,
  match: 3,
  generate: 4,
  compare: 4,
};

function patternPartOf(file: string): string {
  const [first, ...rest] = path.relative(PATTERN, file).split(path.sep);
  if (rest.length > 0) return first;
  return first in PATTERN_RANK ? first : '(top-level)';
}

const patternFiles = files.filter((f) => f.startsWith(PATTERN + path.sep));

test('every part of src/pattern has a rank', () => {
  expect(patternFiles.map(patternPartOf).filter((p) => PATTERN_RANK[p] === undefined)).toEqual([]);
});

test('imports inside src/pattern never go up its order, nor between parts of one rank', () => {
  const wrong: string[] = [];
  let across = 0;
  for (const file of patternFiles) {
    const a = patternPartOf(file);
    for (const t of graph.get(file) ?? []) {
      if (!t.startsWith(PATTERN + path.sep)) continue;
      const b = patternPartOf(t);
      if (a === b) continue;
      across++;
      if (PATTERN_RANK[b] > PATTERN_RANK[a]) wrong.push(`${rel(file)} imports ${rel(t)} (${b} is above ${a})`);
      else if (PATTERN_RANK[b] === PATTERN_RANK[a]) wrong.push(`${rel(file)} imports ${rel(t)} (${a} and ${b} are one rank)`);
    }
  }
  expect(wrong).toEqual([]);
  // The check sees the imports between the parts, so an empty list above means something.
  expect(across).toBeGreaterThan(40);
});

/*
 * The Jest preset (preset/, plain JavaScript) takes what it needs from the build through one typed
 * entry, src/preset-api.ts (dist/preset-api.js), and each of its files is `// @ts-check`, so
 * `npm run typecheck` (tsconfig.preset.json) checks every name it takes. The matchers' setup file
 * takes the package's root, as a user's code does.
 */
const PRESET = path.resolve(__dirname, '..', 'preset');
const presetFiles = readdirSync(PRESET)
  .filter((f) => f.endsWith('.js'))
  .map((f) => path.join(PRESET, f));

test('the preset reaches the build only through dist/preset-api.js (and the package root)', () => {
  const wrong: string[] = [];
  for (const f of presetFiles) {
    for (const spec of importsOf(readFileSync(f, 'utf8'))) {
      if (spec.startsWith('../dist/') && spec !== '../dist/preset-api.js' && spec !== '../dist/index.js') wrong.push(`preset/${path.basename(f)} requires ${spec}`);
    }
  }
  expect(wrong).toEqual([]);
  expect(presetFiles.length).toBeGreaterThan(5);
});

test('every file of the preset is checked by the compiler', () => {
  const unchecked = presetFiles.filter((f) => !readFileSync(f, 'utf8').startsWith('// @ts-check\n')).map((f) => path.basename(f));
  expect(unchecked).toEqual([]);
  expect(JSON.parse(readFileSync(path.resolve(__dirname, '..', 'package.json'), 'utf8')).scripts.typecheck).toContain('tsconfig.preset.json');
});
