import { existsSync } from 'node:fs';
import path from 'node:path';
import { CACHE_DIR, FILE_LIMITS, readInputBytes } from '../files';
import { CONSUMER_EXAMPLE_LIMITS } from '../limits';
import { AccordError } from '../errors';
import { parseJson } from '../json/parse';
import { hasControl, quoted, withoutCredentials } from '../printable';
import { defaultSourceName, isSafeName } from './source-name';
import { SPECMATIC_FILES, translateSpecmatic, type AccordSettings, type SpecmaticNote } from './specmatic';
import { readSpecmaticFile } from './specmatic-file';

export { isSafeName };

/**
 * Contract sources a project names, in `accord.config.json` or under
 * `"accord"` in package.json: git repositories (a URL or a local path) at a
 * branch, tag or commit, and which of their contracts this project provides
 * (runs as tests) and consumes (serves as stubs).
 */
export interface ContractSource {
  /** A short name: the cache folder's (`.accord/provides/<name>/...`). */
  name: string;
  git: string;
  ref: { kind: 'branch' | 'tag' | 'commit'; value: string } | undefined;
  provides: string[];
  consumes: string[];
}

export interface ProjectConfig {
  /** The file the settings were read from. */
  file: string;
  root: string;
  sources: ContractSource[];
  /**
   * `accord test`'s settings (what `testEnvironmentOptions.accord` holds for the preset: baseUrl,
   * environments, auth, tls, wsSecurity, coverageThreshold, report, …), checked by the runner.
   */
  test?: Record<string, unknown>;
  /**
   * Set when the settings were read from Specmatic's (specmatic.yaml, .yml or .json), there being
   * no accord.config.json nor package.json "accord": what each of its fields became or why it has
   * no meaning here, and the other Specmatic files present but not read.
   */
  specmatic?: { notes: SpecmaticNote[]; notRead: string[] };
}

export const CONFIG_FILE = 'accord.config.json';
/** Where pulled contracts go, under the project root (files/folders.ts). */
export { CACHE_DIR };

const SOURCE_KEYS = ['name', 'git', 'branch', 'tag', 'commit', 'provides', 'consumes'];

function problem(file: string, message: string): AccordError {
  return new AccordError('ACCORD_ERR_USAGE', message, { file });
}

/**
 * The project's settings from `dir`: accord.config.json first, else package.json's "accord", else
 * Specmatic's settings (specmatic.yaml, .yml, .json, in Specmatic's order) translated; undefined when none.
 */
export function readProjectConfig(dir: string): ProjectConfig | undefined {
  const own = path.join(dir, CONFIG_FILE);
  if (existsSync(own)) return fromValue(readJson(own), own, dir);
  const pkg = path.join(dir, 'package.json');
  if (existsSync(pkg)) {
    const value = readJson(pkg) as Record<string, unknown> | null;
    if (value && typeof value === 'object' && 'accord' in value) return fromValue(value.accord, `${pkg} ("accord")`, dir);
  }
  const found = SPECMATIC_FILES.map((f) => path.join(dir, f)).filter((f) => existsSync(f));
  if (found.length === 0) return undefined;
  return readSpecmaticConfig(found[0], dir, found.slice(1));
}

/** Specmatic's settings in `file`, as accord's (see specmatic.ts); `root` is where relative paths start. */
export function readSpecmaticConfig(file: string, root: string, notRead: string[] = [], shown: string = file): ProjectConfig {
  const { settings, notes, sourceFields } = specmaticSettings(file, shown);
  const config = fromValue(settings, file, root, (i) => `${shown}: ${sourceFields[i]}`);
  return { ...config, specmatic: { notes, notRead } };
}

/** Specmatic's settings in `file` as accord.config.json's value (what `accord config migrate` writes), with the notes. */
export function specmaticSettings(file: string, shown: string = file): { settings: AccordSettings; notes: SpecmaticNote[]; sourceFields: string[] } {
  return translateSpecmatic(readSpecmaticFile(file, shown), shown);
}

/**
 * The one line a command says when it read Specmatic's settings (stderr), or undefined: which file,
 * how many of its fields have no meaning here, and where to see them.
 */
export function settingsNotice(config: ProjectConfig, command: string): string | undefined {
  if (!config.specmatic) return undefined;
  const dropped = config.specmatic.notes.filter((n) => n.dropped).length;
  const also = config.specmatic.notRead.length > 0 ? `; ${config.specmatic.notRead.map((f) => path.basename(f)).join(', ')} not read` : '';
  return `${command}: read Specmatic's settings from ${path.basename(config.file)} (there is no ${CONFIG_FILE}): ${dropped === 0 ? 'every field has a meaning here' : `${dropped} field${dropped === 1 ? ' has' : 's have'} no meaning here`}${also}; accord config migrate lists them and writes ${CONFIG_FILE}`;
}

function readJson(file: string): unknown {
  const text = readInputBytes(file, { what: 'settings file', limit: FILE_LIMITS.settingsBytes, shown: file }).toString('utf8');
  try {
    return parseJson(text);
  } catch (e) {
    throw problem(file, `not valid JSON: ${(e as Error).message}`);
  }
}

function fromValue(value: unknown, file: string, root: string, sourceWhere: (i: number) => string = (i) => `${file}: sources[${i}]`): ProjectConfig {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw problem(file, 'the settings must be an object such as { "sources": [...] }');
  const v = value as Record<string, unknown>;
  for (const k of Object.keys(v)) if (k !== 'sources' && k !== 'test') throw problem(file, `unknown setting ${quoted(k)}: the settings are "sources" and "test"`);
  if (v.test !== undefined && (!v.test || typeof v.test !== 'object' || Array.isArray(v.test)))
    throw problem(file, '"test" must be an object such as { "baseUrl": "http://127.0.0.1:8080" } (accord test\'s settings)');
  const test = v.test as Record<string, unknown> | undefined;
  if (v.sources === undefined && test) return { file, root, sources: [], test };
  if (!Array.isArray(v.sources)) throw problem(file, '"sources" must be a list of { "git": ..., "branch" | "tag" | "commit": ..., "provides": [...], "consumes": [...] }');
  const sources = v.sources.map((s, i) => source(s, sourceWhere(i)));
  const names = new Set<string>();
  for (const s of sources) {
    if (names.has(s.name)) throw problem(file, `two sources are named ${quoted(s.name)}: give one a "name"`);
    names.add(s.name);
  }
  return { file, root, sources, ...(test ? { test } : {}) };
}

function source(value: unknown, where: string): ContractSource {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw problem(where, 'a source must be an object with "git"');
  const s = value as Record<string, unknown>;
  for (const k of Object.keys(s)) if (!SOURCE_KEYS.includes(k)) throw problem(where, `unknown key ${quoted(k)}: the keys are ${SOURCE_KEYS.join(', ')}`);
  const text = (k: string): string | undefined => {
    if (s[k] === undefined) return undefined;
    if (typeof s[k] !== 'string' || s[k] === '' || hasControl(s[k] as string)) throw problem(where, `"${k}" must be a non-empty string`);
    return s[k] as string;
  };
  const gitUrl = text('git');
  if (!gitUrl) throw problem(where, '"git" is missing: a repository URL or a local path');
  // An argument that starts with "-" would be read by git as an option.
  if (gitUrl.startsWith('-')) throw problem(where, `"git" cannot start with "-": ${quoted(withoutCredentials(gitUrl))}`);
  const refs = (['branch', 'tag', 'commit'] as const).filter((k) => s[k] !== undefined);
  if (refs.length > 1) throw problem(where, `give one of "branch", "tag" or "commit", not ${refs.join(' and ')}`);
  const ref = refs[0] ? { kind: refs[0], value: text(refs[0])! } : undefined;
  if (ref && ref.value.startsWith('-')) throw problem(where, `"${ref.kind}" cannot start with "-"`);
  if (ref?.kind === 'commit' && !isHex(ref.value)) throw problem(where, `"commit" must be a full or abbreviated hash, found ${quoted(ref.value)}`);
  const list = (k: string): string[] => {
    if (s[k] === undefined) return [];
    if (!Array.isArray(s[k]) || !(s[k] as unknown[]).every((x) => typeof x === 'string' && x !== '')) throw problem(where, `"${k}" must be a list of paths in the repository`);
    const paths = s[k] as string[];
    for (const p of paths) if (path.isAbsolute(p) || p.replaceAll('\\', '/').split('/').includes('..')) throw problem(where, `${quoted(p)} in "${k}" leaves the repository`);
    return paths;
  };
  const name = text('name') ?? defaultSourceName(gitUrl);
  if (!isSafeName(name)) throw problem(where, `"name" may hold letters, digits, ".", "_" and "-" only, found ${quoted(name)}`);
  return { name, git: gitUrl, ref, provides: list('provides'), consumes: list('consumes') };
}

function isHex(s: string): boolean {
  return s.length >= 7 && s.length <= 64 && [...s].every((c) => (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
}

/** Names Windows gives to devices, in any case and with any extension (`con.json`): no folder may have one. */
const WINDOWS_DEVICES = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/**
 * Why `name` cannot be a consumer's name, or undefined when it can. It is the folder
 * `consumers/<name>/` of the shared repository, which publish replaces whole, so it must name
 * one folder of its own on every file system the repository is checked out on: not empty (an
 * unset CI variable), letters, digits, ".", "_" and "-" only (no separator, space or control
 * character), not starting with "." or "-" (`.`, `..`, `.git`, an option), not ending with "."
 * (Windows drops it), not a Windows device name, at most CONSUMER_EXAMPLE_LIMITS.nameChars long.
 */
export function consumerNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'is empty (is the variable that should give it unset?)';
  if (name.length > CONSUMER_EXAMPLE_LIMITS.nameChars) return `is longer than ${CONSUMER_EXAMPLE_LIMITS.nameChars} characters`;
  if (name.startsWith('.') || name.startsWith('-')) return 'may not start with "." or "-"';
  if (!isSafeName(name)) return 'may hold letters, digits, ".", "_" and "-" only';
  if (name.endsWith('.')) return 'may not end with "." (Windows drops it: two names would be one folder)';
  if (WINDOWS_DEVICES.test(name)) return 'is a device name on Windows, where no folder can have it';
  return undefined;
}

/** Where a source's provided and consumed contracts are kept after a pull. */
export function cachePaths(config: ProjectConfig, s: ContractSource): { checkout: string; provides: string; consumes: string } {
  const base = path.join(config.root, CACHE_DIR);
  return { checkout: path.join(base, 'checkouts', s.name), provides: path.join(base, 'provides', s.name), consumes: path.join(base, 'consumes', s.name) };
}
