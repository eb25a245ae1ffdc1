import path from 'node:path';
import { AccordError } from '../errors';
import { isHttpUrl } from '../http/target';
import { quoted } from '../printable';
import { defaultSourceName } from './source-name';

/**
 * Specmatic's settings (`specmatic.yaml`, `.yml` or `.json`, versions 1 and 2) as accord's
 * (`accord.config.json`): a pure function from the parsed file to the settings accord reads, and one
 * note for every field, saying what it became or why it has no meaning here. Nothing is dropped
 * without a note: a field unknown to Specmatic is noted too (Specmatic itself refuses the file).
 *
 * Version 1: `sources: [{ provider: git, repository, branch, provides, consumes }]` (`type`,
 * `test` and `stub` are Specmatic's aliases of `provider`, `provides` and `consumes`;
 * `contract_repositories` of `sources`). Version 2: `contracts: [{ git: { url, branch } |
 * filesystem: { directory }, provides, consumes }]`, where a consumed entry may be
 * `{ baseUrl | host, port, basePath, specs: [...] }`. A filesystem source has no meaning for
 * `accord contracts pull` (the contracts are already here) and is noted with the commands that
 * read its files where they are.
 */
export interface SpecmaticNote {
  /** The field, as a path in the file: `stub.generative`, `contracts[0].consumes[1]`. */
  field: string;
  /** What it became in accord's settings, or why it has none here. */
  text: string;
  /** true when the field has no meaning here (nothing of it is kept). */
  dropped: boolean;
}

/** accord.config.json's shape, as `readProjectConfig` reads it. */
export interface AccordSettings {
  sources: { name?: string; git: string; branch?: string; provides: string[]; consumes: string[] }[];
  test?: Record<string, unknown>;
}

export interface SpecmaticTranslation {
  settings: AccordSettings;
  notes: SpecmaticNote[];
  /** Where each of `settings.sources` came from (`contracts[2]`), for messages about it. */
  sourceFields: string[];
}

/** Specmatic's names for its settings files, in the order it looks for them. */
export const SPECMATIC_FILES = ['specmatic.yaml', 'specmatic.yml', 'specmatic.json'] as const;

/** Top-level fields Specmatic knows that have no meaning for accord, with why. */
const NO_MEANING: Record<string, string> = {
  auth: "Specmatic's token for cloning the contract repository; accord pulls with git, which uses your own git credentials (a credential helper or SSH key)",
  pipeline: "the Azure pipeline of Specmatic's central-repository checks; accord has none",
  hooks: 'commands Specmatic runs at its hook points; accord runs none',
  repository: "Specmatic's report metadata (provider, collectionName); accord has none",
  report:
    "Specmatic's report formatters and OpenAPI API-coverage criteria; accord's report is `accord test --reporter html` (or test.report) and its gate test.coverageThreshold (scenarios, WSDL operations)",
  security: 'tokens for OpenAPI security schemes; accord\'s request auth is test.auth, with secrets as { "env": "NAME" }',
  examples: "extra example folders; accord reads a contract's examples from <contract>_examples/ beside it",
  workflow: 'ids carried between OpenAPI operations; no meaning for .spec contracts',
  virtualService: "Specmatic's virtual service; accord has none",
  virtual_service: "Specmatic's virtual service; accord has none",
  ignoreInlineExamples: "accord always uses a contract's Examples",
  additionalExampleParamsFilePath: 'extra OpenAPI example parameters; accord has none',
  attributeSelectionPattern: "Specmatic's OpenAPI attribute selection; accord has none",
  attribute_selection_pattern: "Specmatic's OpenAPI attribute selection; accord has none",
  allPatternsMandatory: "Specmatic's OpenAPI generation switch; accord has none",
  all_patterns_mandatory: "Specmatic's OpenAPI generation switch; accord has none",
  defaultPatternValues: "Specmatic's OpenAPI default values; accord has none",
  default_pattern_values: "Specmatic's OpenAPI default values; accord has none",
};

const STUB_NOTES: Record<string, string> = {
  generative: "Specmatic's generated answers for OpenAPI; accord's stub answers from the contract (Examples, example files, expectations)",
  dictionary: "Specmatic's dictionary of values for OpenAPI answers; accord's answers come from the contract's Examples and example files",
  includeMandatoryAndRequestedKeysInResponse: "Specmatic's OpenAPI answer shaping; accord has none",
  startTimeoutInMilliseconds: "how long Specmatic waits for its stub to start; accord's stub says when it listens",
};

const TEST_NOTES: Record<string, string> = {
  validateResponseValues: "accord holds an answer to the values the contract's Examples give, always; there is no switch",
  allowExtensibleSchema: 'OpenAPI schemas; no meaning for .spec contracts',
};

/** Extensions of contracts accord does not read: OpenAPI first (Specmatic's own main format). */
const OPENAPI_EXTENSIONS = ['.yaml', '.yml', '.json'];
const OTHER_FORMATS = ['.graphql', '.graphqls', '.proto', '.avsc', '.asyncapi'];

export function translateSpecmatic(value: unknown, file: string): SpecmaticTranslation {
  const fail = (message: string): AccordError => new AccordError('ACCORD_ERR_USAGE', message, { file });
  if (!isObject(value)) throw fail("Specmatic's settings must be a mapping such as { version: 2, contracts: [...] }");
  // Specmatic reads `version` as a number (Jackson's asInt: "2" is 2); absent or 0 is version 1.
  const given = value.version ?? 1;
  const version = given === '0' || given === '1' || given === 0 ? 1 : given === '2' ? 2 : given;
  if (version !== 1 && version !== 2)
    throw fail(
      `version ${quoted(typeof given === 'string' ? given : String(JSON.stringify(given)))}: accord reads Specmatic's settings of version 1 and 2 (Specmatic's own \`config upgrade\` writes version 2)`,
    );
  const notes: SpecmaticNote[] = [];
  const note = (field: string, text: string, dropped = true) => notes.push({ field, text, dropped });
  const sources: AccordSettings['sources'] = [];
  const sourceFields: string[] = [];
  const names: string[] = [];
  const test: Record<string, unknown> = {};
  const provided: string[] = [];
  const listKey = version === 2 ? 'contracts' : Object.hasOwn(value, 'sources') ? 'sources' : 'contract_repositories';

  for (const key of Object.keys(value)) {
    if (key === 'version' || key === listKey || key === 'environments' || key === 'test' || key === 'stub') continue;
    if (Object.hasOwn(NO_MEANING, key)) note(key, `${NO_MEANING[key]}: no meaning here`);
    else if (key === 'contracts' || key === 'sources' || key === 'contract_repositories')
      note(
        key,
        `a version ${key === 'contracts' ? 2 : 1} field in a version ${version === 2 ? 2 : 1} file: Specmatic does not read it, nor does accord${key === 'contracts' ? ' (add version: 2)' : ''}`,
      );
    else note(key, 'not a setting of Specmatic (which refuses the file) nor of accord: ignored');
  }

  const entries = value[listKey];
  if (entries !== undefined) {
    if (!Array.isArray(entries)) throw fail(`${listKey} must be a list of contract sources`);
    entries.forEach((entry, i) => {
      const at = `${listKey}[${i}]`;
      const read = version === 2 ? readV2(entry, at, fail, note) : readV1(entry, at, fail, note);
      if (!read) return;
      provided.push(...read.provides);
      const name = uniqueName(defaultSourceName(read.git), names);
      names.push(name);
      const renamed = name !== defaultSourceName(read.git);
      if (renamed) note(at, `named ${quoted(name)} (its checkout is .accord/checkouts/${name}): an earlier source has the same repository name`, false);
      sources.push({
        ...(renamed ? { name } : {}),
        git: read.git,
        ...(read.branch !== undefined ? { branch: read.branch } : {}),
        provides: read.provides,
        consumes: read.consumes,
      });
      sourceFields.push(at);
    });
  }

  if (value.test !== undefined) readTest(value.test, test, fail, note);
  if (value.stub !== undefined) readStub(value.stub, fail, note);
  if (value.environments !== undefined) readEnvironments(value.environments, provided, test, fail, note);

  const settings: AccordSettings = { sources, ...(Object.keys(test).length > 0 ? { test } : {}) };
  return { settings, notes, sourceFields };
}

type Note = (field: string, text: string, dropped?: boolean) => void;
type Fail = (message: string) => AccordError;
interface ReadSource {
  git: string;
  branch?: string;
  provides: string[];
  consumes: string[];
}

/** Version 1: `{ provider: git, repository, branch, provides, consumes, directory }`. */
function readV1(entry: unknown, at: string, fail: Fail, note: Note): ReadSource | undefined {
  if (!isObject(entry)) throw fail(`${at} must be a mapping such as { provider: git, repository: ..., provides: [...] }`);
  const known = ['provider', 'type', 'repository', 'branch', 'provides', 'test', 'consumes', 'stub', 'directory'];
  for (const k of Object.keys(entry)) if (!known.includes(k)) note(`${at}.${k}`, `not a field of a Specmatic source (the fields are ${known.join(', ')}): ignored`);
  const provider = entry.provider ?? entry.type ?? 'filesystem';
  if (provider !== 'git' && provider !== 'filesystem' && provider !== 'web') throw fail(`${at}.provider must be git, filesystem or web, found ${quoted(String(provider))}`);
  const provides = contractList(entry.provides ?? entry.test, `${at}.${entry.provides !== undefined ? 'provides' : 'test'}`, fail, note, 'provides');
  const consumes = consumedList(entry.consumes ?? entry.stub, `${at}.${entry.consumes !== undefined ? 'consumes' : 'stub'}`, fail, note);
  if (provider !== 'git') {
    const directory = text(entry.directory, `${at}.directory`, fail) ?? '.';
    if (provider === 'web') note(at, 'a web source (contracts fetched by URL): accord pulls contracts from git repositories only; not read');
    else localSource(at, directory, provides, consumes, note);
    if (entry.repository !== undefined)
      note(`${at}.repository`, `Specmatic reads this source as ${provider} (provider is not git), so it does not clone ${quoted(String(entry.repository))}; nor does accord`);
    return undefined;
  }
  if (entry.directory !== undefined) note(`${at}.directory`, 'a git source has no directory in Specmatic: ignored');
  const git = text(entry.repository, `${at}.repository`, fail);
  if (!git) throw fail(`${at}.repository is missing: a git source names its repository`);
  const branch = text(entry.branch, `${at}.branch`, fail);
  return { git, ...(branch !== undefined ? { branch } : {}), provides, consumes };
}

/** Version 2: `{ git: { url, branch } | filesystem: { directory }, provides, consumes }`. */
function readV2(entry: unknown, at: string, fail: Fail, note: Note): ReadSource | undefined {
  if (!isObject(entry)) throw fail(`${at} must be a mapping such as { git: { url: ..., branch: main }, provides: [...] }`);
  const known = ['git', 'filesystem', 'provides', 'consumes'];
  for (const k of Object.keys(entry)) if (!known.includes(k)) note(`${at}.${k}`, `not a field of a Specmatic contract source (the fields are ${known.join(', ')}): ignored`);
  const provides = contractList(entry.provides, `${at}.provides`, fail, note, 'provides');
  const consumes = consumedList(entry.consumes, `${at}.consumes`, fail, note);
  if (entry.git !== undefined && entry.filesystem !== undefined) throw fail(`${at} has both git and filesystem: give one`);
  if (entry.git === undefined) {
    let directory = '.';
    if (entry.filesystem !== undefined) {
      if (!isObject(entry.filesystem)) throw fail(`${at}.filesystem must be a mapping such as { directory: specs }`);
      for (const k of Object.keys(entry.filesystem)) if (k !== 'directory') note(`${at}.filesystem.${k}`, 'not a field of a filesystem source (it has directory): ignored');
      directory = text(entry.filesystem.directory, `${at}.filesystem.directory`, fail) ?? '.';
    }
    localSource(at, directory, provides, consumes, note);
    return undefined;
  }
  if (!isObject(entry.git)) throw fail(`${at}.git must be a mapping such as { url: https://github.com/team/contracts.git, branch: main }`);
  for (const k of Object.keys(entry.git)) if (k !== 'url' && k !== 'branch') note(`${at}.git.${k}`, 'not a field of a git source (it has url, branch): ignored');
  const git = text(entry.git.url, `${at}.git.url`, fail);
  if (!git) throw fail(`${at}.git.url is missing: a git source names its repository`);
  const branch = text(entry.git.branch, `${at}.git.branch`, fail);
  return { git, ...(branch !== undefined ? { branch } : {}), provides, consumes };
}

/** Contracts already in this repository: nothing to pull; the commands that read them where they are. */
function localSource(at: string, directory: string, provides: string[], consumes: string[], note: Note): void {
  const join = (p: string) => (directory === '.' ? p : path.posix.join(directory, p));
  const parts = [
    provides.length > 0 ? `accord test ${provides.map(join).join(' ')} runs what it provides` : '',
    consumes.length > 0 ? `accord stub ${consumes.map(join).join(' ')} serves what it consumes` : '',
  ].filter((s) => s !== '');
  note(at, `a filesystem source (${directory}): its contracts are in this repository, so there is nothing to pull${parts.length > 0 ? `; ${parts.join(', ')}` : ''}`);
}

/** Paths of contracts: `.spec`, `.wsdl` and folders kept; OpenAPI and other formats noted and left out. */
function contractList(value: unknown, at: string, fail: Fail, note: Note, role: 'provides' | 'consumes'): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw fail(`${at} must be a list of paths in the repository`);
  const kept: string[] = [];
  value.forEach((p, i) => {
    const s = text(p, `${at}[${i}]`, fail);
    if (s !== undefined && keepContract(s, `${at}[${i}]`, note, role)) kept.push(s);
  });
  return kept;
}

function keepContract(p: string, at: string, note: Note, role: 'provides' | 'consumes'): boolean {
  const ext = path.posix.extname(p).toLowerCase();
  if (OPENAPI_EXTENSIONS.includes(ext)) {
    note(at, `${quoted(p)} is an OpenAPI contract: accord reads Gherkin .spec contracts and WSDLs, not OpenAPI; not pulled`);
    return false;
  }
  if (OTHER_FORMATS.includes(ext)) {
    note(at, `${quoted(p)} is not a contract accord reads (.spec, .wsdl); not pulled`);
    return false;
  }
  if (ext === '.wsdl' && role === 'provides')
    note(at, `${quoted(p)} is a WSDL: pulled, and accord stub serves it, but tests run from .spec contracts (accord import wsdl writes one)`, false);
  return true;
}

/** `consumes`: paths, or `{ baseUrl | host, port, basePath, specs }` (Specmatic serves each such group on its own address). */
function consumedList(value: unknown, at: string, fail: Fail, note: Note): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw fail(`${at} must be a list of paths in the repository`);
  const kept: string[] = [];
  value.forEach((c, i) => {
    const where = `${at}[${i}]`;
    if (typeof c === 'string') {
      if (keepContract(c, where, note, 'consumes')) kept.push(text(c, where, fail)!);
      return;
    }
    if (!isObject(c)) throw fail(`${where} must be a path or a mapping such as { port: 9001, specs: [...] }`);
    const address = ['baseUrl', 'host', 'port', 'basePath'].filter((k) => c[k] !== undefined);
    for (const k of Object.keys(c))
      if (!['baseUrl', 'host', 'port', 'basePath', 'specs'].includes(k)) note(`${where}.${k}`, 'not a field of a consumed group (baseUrl, host, port, basePath, specs): ignored');
    const specs = contractList(c.specs, `${where}.specs`, fail, note, 'consumes');
    if (c.specs === undefined) throw fail(`${where}.specs is missing: the contracts served at this address`);
    kept.push(...specs);
    if (address.length > 0)
      note(
        where,
        `Specmatic serves these at ${address.map((k) => `${k} ${String(c[k])}`).join(', ')}; accord stub serves every consumed contract at one address (--host, --port): the address is not kept`,
      );
  });
  return kept;
}

function readTest(value: unknown, test: Record<string, unknown>, fail: Fail, note: Note): void {
  if (value === null) return;
  if (!isObject(value)) throw fail('test must be a mapping such as { timeoutInMilliseconds: 6000 }');
  for (const [k, v] of Object.entries(value)) {
    const at = `test.${k}`;
    if (k === 'timeoutInMilliseconds') {
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0)
        throw fail(`${at} must be a number of milliseconds above 0, found ${quoted(JSON.stringify(v) ?? String(v))}`);
      test.timeoutMs = v;
      note(at, 'became test.timeoutMs', false);
    } else if (k === 'resiliencyTests') {
      const enable = isObject(v) ? v.enable : undefined;
      if (isObject(v)) for (const extra of Object.keys(v)) if (extra !== 'enable') note(`${at}.${extra}`, 'not a field of resiliencyTests (it has enable): ignored');
      if (enable === 'all') {
        test.negative = true;
        note(`${at}.enable`, 'all became test.negative: true (accord also sends invalid requests, which the service must refuse)', false);
      } else if (enable === 'positiveOnly')
        note(`${at}.enable`, "positiveOnly: Specmatic's generated valid variations; accord runs the contract's scenarios and rows, and test.negative stays off");
      else if (enable === 'none' || enable === undefined || enable === null) note(`${at}.enable`, 'none: test.negative stays off', false);
      else throw fail(`${at}.enable must be all, positiveOnly or none, found ${quoted(String(enable))}`);
    } else if (Object.hasOwn(TEST_NOTES, k)) note(at, `${TEST_NOTES[k]}: no meaning here`);
    else note(at, 'not a test setting of Specmatic (which refuses the file) nor of accord: ignored');
  }
}

function readStub(value: unknown, fail: Fail, note: Note): void {
  if (value === null) return;
  if (!isObject(value)) throw fail('stub must be a mapping such as { delayInMilliseconds: 100 }');
  for (const [k, v] of Object.entries(value)) {
    const at = `stub.${k}`;
    if (k === 'delayInMilliseconds')
      note(at, `a delay of every answer: accord stub --delay ${typeof v === 'number' ? v : '<ms>'} gives it (accord's settings hold none for the stub)`);
    else if (Object.hasOwn(STUB_NOTES, k)) note(at, `${STUB_NOTES[k]}: no meaning here`);
    else note(at, 'not a stub setting of Specmatic (which refuses the file) nor of accord: ignored');
  }
}

/**
 * `environments.<name>.baseurls` maps a contract file to the address it is run against. accord runs
 * one service per environment: the address of the provided contracts when the map names them, else
 * the one address when all agree; several different ones are noted, not guessed.
 */
function readEnvironments(value: unknown, provided: string[], test: Record<string, unknown>, fail: Fail, note: Note): void {
  if (value === null) return;
  if (!isObject(value)) throw fail('environments must be a mapping of named environments such as { staging: { baseurls: { ... } } }');
  const out: Record<string, { baseUrl: string }> = {};
  const providedNames = new Set(provided.map((p) => path.posix.basename(p)));
  for (const [name, env] of Object.entries(value)) {
    const at = `environments.${name}`;
    if (!isObject(env)) throw fail(`${at} must be a mapping such as { baseurls: { "api.spec": "http://127.0.0.1:8080" } }`);
    for (const k of Object.keys(env)) {
      if (k === 'variables') note(`${at}.variables`, "values of Specmatic's variables in contracts; accord has no such lookup: no meaning here");
      else if (k !== 'baseurls') note(`${at}.${k}`, 'not a field of a Specmatic environment (baseurls, variables): ignored');
    }
    if (env.baseurls === undefined || env.baseurls === null) continue;
    if (!isObject(env.baseurls)) throw fail(`${at}.baseurls must be a mapping of contract file to address`);
    const entries = Object.entries(env.baseurls).map(([k, v]) => [k, typeof v === 'string' ? v : String(v)] as const);
    const ofProvided = entries.filter(([k]) => providedNames.has(path.posix.basename(k)));
    const candidates = [...new Set((ofProvided.length > 0 ? ofProvided : entries).map(([, v]) => v))];
    if (candidates.length === 1 && isHttpUrl(candidates[0])) {
      out[name] = { baseUrl: candidates[0] };
      const others = entries.filter(([, v]) => v !== candidates[0]).map(([k]) => k);
      note(
        `${at}.baseurls`,
        `became test.environments.${name}.baseUrl ${candidates[0]} (ACCORD_ENV=${name} chooses it, as Specmatic's --env does)${others.length > 0 ? `; the addresses of ${others.join(', ')} are not kept (accord tests one service per environment)` : ''}`,
        others.length > 0,
      );
    } else if (candidates.length === 1) note(`${at}.baseurls`, `${quoted(candidates[0])} is not an http:// or https:// URL: not kept; set test.environments.${name}.baseUrl`);
    else if (candidates.length > 1)
      note(
        `${at}.baseurls`,
        `several addresses (${candidates.join(', ')}): accord tests one service per environment and does not guess which; set test.environments.${name}.baseUrl`,
      );
  }
  if (Object.keys(out).length > 0) test.environments = out;
}

function text(value: unknown, at: string, fail: Fail): string | undefined {
  if (value === undefined || value === null) return undefined;
  // YAML reads `branch: 2024` as a number; Specmatic's Jackson takes it as the text.
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string' || value === '') throw fail(`${at} must be a non-empty text`);
  return value;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The name accord gives a source of this repository (its last path segment without `.git`), made unique among `taken`. */
function uniqueName(base: string, taken: readonly string[]): string {
  const names = new Set(taken);
  if (!names.has(base)) return base;
  for (let i = 2; ; i++) if (!names.has(`${base}-${i}`)) return `${base}-${i}`;
}
