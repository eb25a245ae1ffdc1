import { createSecureContext } from 'node:tls';
import path from 'node:path';
import { AccordError } from '../errors';
import { readInputBytes } from '../files/read';
import type { TlsFiles } from '../http/client';
import type { OAuth2Options } from '../http/oauth2';
import { DEFAULT_TIMEOUT_MS, FILE_LIMITS } from '../limits';
import { closest } from '../suggest';
import { resolveWsConfig, WS_OPTIONS, type WsRunnerConfig } from './ws-config';
import { shownUrl } from '../http/redact';
import { isHttpUrl } from '../http/target';

/**
 * Where the service under test is and how patient to be with it. ACCORD_* environment
 * variables win over `testEnvironmentOptions.accord` in the Jest config, so CI can
 * point the same suite at another host without editing files.
 *
 * Nothing wrong is ignored silently: a misspelt option (with a did-you-mean), a
 * base URL that is not http(s), a time-out or seed that is not a number all
 * become `problems`, and every test then fails with them instead of running
 * against defaults the user did not choose.
 */
export interface RunnerConfig {
  baseUrl?: string;
  timeoutMs: number;
  seed: number;
  /** What is wrong with the settings, worded for the user; tests fail with these when any. */
  problems: string[];
  /** Jest's --silent: accord prints nothing of its own (results still carry everything). */
  silent?: boolean;
  /** Also send generated invalid requests, each expected to be rejected (negative.ts). */
  negative: boolean;
  /** The profile of `environments` chosen by ACCORD_ENV (or `environment`). */
  environment?: string;
  /** How each request proves who sends it. */
  auth?: Auth;
  /** Headers added to every request (names in lower case), over the contract's own. */
  headers?: Record<string, string>;
  /** Client certificate and extra CA, read from their files. */
  tls?: TlsFiles;
  /** Values never shown: every value read through an `{ env }` reference (see redact.ts). */
  secrets?: string[];
  /** Names (lower case) of the added headers whose values are secret, shown as ***. */
  secretHeaders?: string[];
  /** WS-Security, WS-Addressing, MTOM and provider states (ws-config.ts); absent when none is set. */
  ws?: WsRunnerConfig;
}

/** `{ env: 'PET_API_TOKEN' }`: the value is the environment variable's, read when Jest starts. */
export interface EnvReference {
  env: string;
}

/** A secret: only ever a reference to an environment variable, never the value itself. */
export type SecretValue = EnvReference;
/** A value that is not secret by itself (a user name, a client id, a tenant id): literal or a reference. */
export type PlainValue = string | EnvReference;

/** `auth` in `testEnvironmentOptions.accord` (or in an environment), before references are read. */
export type AuthOptions =
  | { type: 'basic'; username: PlainValue; password: SecretValue }
  | { type: 'bearer'; token: SecretValue }
  | {
      type: 'oauth2';
      tokenUrl: string;
      clientId: PlainValue;
      clientSecret: SecretValue;
      scope?: string;
      audience?: string;
      /** How the client authenticates to the token URL: HTTP Basic (default, RFC 6749 2.3.1) or in the form body. */
      clientAuth?: 'basic' | 'body';
    };

/** `tls`: a client certificate (PEM `cert` + `key`, or PKCS#12 `pfx`) and an extra CA bundle; paths from the rootDir. */
export interface TlsOptions {
  cert?: string;
  key?: string;
  pfx?: string;
  passphrase?: SecretValue;
  ca?: string;
}

/** What an environment (`environments.<name>`) may set; each replaces the top-level one, `headers` merge by name. */
export interface ProfileOptions {
  baseUrl?: string;
  auth?: AuthOptions;
  tls?: TlsOptions;
  headers?: Record<string, PlainValue>;
}

/** `auth` with its references read. */
export type Auth = { type: 'basic'; username: string; password: string } | { type: 'bearer'; token: string } | ({ type: 'oauth2' } & OAuth2Options);

export interface RawRunnerOptions {
  baseUrl?: unknown;
  timeoutMs?: unknown;
  seed?: unknown;
  negative?: unknown;
  auth?: unknown;
  headers?: unknown;
  tls?: unknown;
  environment?: unknown;
  environments?: unknown;
}

export const CONFIG_GLOBAL = '__ACCORD_CONFIG__';
export const WIP_GLOBAL = '__ACCORD_WIP__';
/** The runtime the preset's environment hands each test file (src/runner/runtime.ts). */
export const RUNTIME_GLOBAL = '__ACCORD_RUNTIME__';
/** The outline of the contract a test file opened, for the coverage reporter (src/runner/coverage.ts). */
export const OUTLINE_GLOBAL = '__ACCORD_OUTLINE__';
/** Set (a map of full test name to exchange) when the HTML report is on: the runtime records each case's exchange there (src/runner/report.ts). */
export const REPORT_GLOBAL = '__ACCORD_REPORT__';
/** The consumer examples a test file replayed (src/runner/runtime.ts), for the HTML report's owners table (report.ts). */
export const CONSUMERS_GLOBAL = '__ACCORD_CONSUMERS__';

const WHERE = 'testEnvironmentOptions.accord';
// coverageThreshold, coverageFile, report and wsdl are read by the preset's coverage reporter (coverage.ts).
const OPTIONS = [
  'baseUrl',
  'timeoutMs',
  'seed',
  'negative',
  'coverageThreshold',
  'coverageFile',
  'report',
  'wsdl',
  'auth',
  'headers',
  'tls',
  'environment',
  'environments',
  ...WS_OPTIONS,
] as const;
/** What an environment may set. A new block (e.g. `wsSecurity`) goes here, in OPTIONS and in `readProfile`. */
const PROFILE_OPTIONS = ['baseUrl', 'auth', 'tls', 'headers'] as const;

/** `rootDir`: where relative certificate paths start (the Jest rootDir; default the working folder). */
export function resolveRunnerConfig(fromJest: unknown, env: NodeJS.ProcessEnv, rootDir: string = process.cwd()): RunnerConfig {
  const problems: string[] = [];
  let options: RawRunnerOptions = {};
  if (fromJest !== undefined && fromJest !== null) {
    if (typeof fromJest !== 'object' || Array.isArray(fromJest))
      problems.push(`${WHERE} must be an object such as { baseUrl: 'http://127.0.0.1:8080' }, found ${JSON.stringify(fromJest)}`);
    else {
      options = fromJest as RawRunnerOptions;
      unknownKeys(options, OPTIONS, WHERE, 'the options are', problems);
    }
  }
  const pick = (variable: string, option: keyof RawRunnerOptions): { value: unknown; from: string } | undefined => {
    if (env[variable] !== undefined && env[variable] !== '') return { value: env[variable], from: variable };
    if (options[option] !== undefined) return { value: options[option], from: `${WHERE}.${option}` };
    return undefined;
  };

  const profile = readProfiles(options, env, problems);
  // ACCORD_BASE_URL, then the chosen environment's, then the top-level one.
  const fromProfile = !env.ACCORD_BASE_URL && profile?.options.baseUrl !== undefined;
  const base = fromProfile ? { value: profile!.options.baseUrl, from: `${profile!.where}.baseUrl` } : pick('ACCORD_BASE_URL', 'baseUrl');
  let baseUrl: string | undefined;
  if (base) {
    if (typeof base.value === 'string' && isHttpUrl(base.value)) baseUrl = base.value;
    else problems.push(`${base.from} must be an http:// or https:// URL such as http://127.0.0.1:8080, found ${JSON.stringify(base.value)}`);
  }
  const timeoutMs = number(pick('ACCORD_TIMEOUT_MS', 'timeoutMs'), 'a number of milliseconds above 0', (n) => n > 0, problems) ?? DEFAULT_TIMEOUT_MS;
  const seed = number(pick('ACCORD_SEED', 'seed'), 'a whole number', (n) => Number.isSafeInteger(n), problems) ?? 0;
  const negative = flag(pick('ACCORD_NEGATIVE', 'negative'), problems);
  const extras = resolveProfile(options, profile, env, rootDir, problems);
  // WS-Security files are read from the rootDir, as the tls files are.
  const ws = resolveWsConfig(options as Record<string, unknown>, env, problems, rootDir);
  // The WS-Security password and key passphrase are hidden wherever accord prints, as the auth secrets are.
  const wsSecrets = [ws?.wsSecurity?.password, ws?.wsSecurity?.signature?.passphrase].filter((x): x is string => x !== undefined);
  const secrets = wsSecrets.length > 0 ? [...(extras.secrets ?? []), ...wsSecrets] : extras.secrets;
  return { baseUrl, timeoutMs, seed, negative, problems, environment: profile?.name, ...extras, ...(secrets ? { secrets } : {}), ...(ws ? { ws } : {}) };
}

function number(given: { value: unknown; from: string } | undefined, what: string, ok: (n: number) => boolean, problems: string[]): number | undefined {
  if (!given) return undefined;
  const n = typeof given.value === 'number' ? given.value : typeof given.value === 'string' && given.value.trim() !== '' ? Number(given.value) : NaN;
  if (Number.isFinite(n) && ok(n)) return n;
  problems.push(`${given.from} must be ${what}, found ${JSON.stringify(given.value)}`);
  return undefined;
}

/** true/false, or 1/0 and true/false in an environment variable. */
function flag(given: { value: unknown; from: string } | undefined, problems: string[]): boolean {
  if (!given) return false;
  const v = given.value;
  if (v === true || v === 'true' || v === '1') return true;
  if (v === false || v === 'false' || v === '0') return false;
  problems.push(`${given.from} must be true or false (1 or 0), found ${JSON.stringify(v)}`);
  return false;
}

/** Every key of `block` not in `known` becomes a problem, with a did-you-mean. */
function unknownKeys(block: object, known: readonly string[], where: string, listed: string, problems: string[]): void {
  for (const key of Object.keys(block)) {
    if (known.includes(key)) continue;
    const near = closest(key, known);
    problems.push(`unknown option "${key}" in ${where}${near ? ` (did you mean "${near}"?)` : ''}; ${listed} ${known.join(', ')}`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

interface ChosenProfile {
  name: string;
  where: string;
  options: Record<string, unknown>;
}

/**
 * Checks every environment's shape (a typo in `production` is found while testing `staging`) and
 * returns the one ACCORD_ENV (or `environment`) chooses. References are read only for that one.
 */
function readProfiles(options: RawRunnerOptions, env: NodeJS.ProcessEnv, problems: string[]): ChosenProfile | undefined {
  const all = options.environments;
  const where = `${WHERE}.environments`;
  const profiles: Record<string, Record<string, unknown>> = {};
  if (all !== undefined) {
    if (!isObject(all))
      problems.push(`${where} must be an object of named environments such as { staging: { baseUrl: 'https://staging.example.com' } }, found ${JSON.stringify(all)}`);
    else
      for (const [name, p] of Object.entries(all)) {
        if (!isObject(p)) {
          problems.push(`${where}.${name} must be an object with ${PROFILE_OPTIONS.join(', ')}, found ${JSON.stringify(p)}`);
          continue;
        }
        unknownKeys(p, PROFILE_OPTIONS, `${where}.${name}`, 'an environment sets', problems);
        profiles[name] = p;
      }
  }
  const chosen =
    env.ACCORD_ENV !== undefined && env.ACCORD_ENV !== ''
      ? { name: env.ACCORD_ENV, from: 'ACCORD_ENV' }
      : options.environment !== undefined
        ? { name: options.environment, from: `${WHERE}.environment` }
        : undefined;
  if (!chosen) return undefined;
  if (typeof chosen.name !== 'string' || chosen.name === '') {
    problems.push(`${chosen.from} must name one of ${where}, found ${JSON.stringify(chosen.name)}`);
    return undefined;
  }
  const names = Object.keys(profiles);
  if (!Object.prototype.hasOwnProperty.call(profiles, chosen.name)) {
    if (names.length === 0) problems.push(`${chosen.from} chooses the environment "${chosen.name}", but ${where} defines none`);
    else {
      const near = closest(chosen.name, names);
      problems.push(
        `${chosen.from} chooses the environment "${chosen.name}", which ${where} does not define${near ? ` (did you mean "${near}"?)` : ''}; the environments are ${names.join(', ')}`,
      );
    }
    return undefined;
  }
  return { name: chosen.name, where: `${where}.${chosen.name}`, options: profiles[chosen.name] };
}

type Extras = Pick<RunnerConfig, 'auth' | 'headers' | 'tls' | 'secrets' | 'secretHeaders'>;

/** Reads `auth`, `headers` and `tls` (the chosen environment's over the top-level ones) with their references. */
function resolveProfile(options: RawRunnerOptions, profile: ChosenProfile | undefined, env: NodeJS.ProcessEnv, rootDir: string, problems: string[]): Extras {
  const secrets = new Secrets(env, problems);
  const out: Extras = {};
  // The shapes of the top-level blocks are checked even when an environment replaces them.
  const top = { auth: readAuth(options.auth, `${WHERE}.auth`, secrets), tls: readTls(options.tls, `${WHERE}.tls`, secrets, rootDir) };
  const own = profile && {
    auth: readAuth(profile.options.auth, `${profile.where}.auth`, secrets),
    tls: readTls(profile.options.tls, `${profile.where}.tls`, secrets, rootDir),
  };
  out.auth = profile?.options.auth !== undefined ? own!.auth : top.auth;
  out.tls = profile?.options.tls !== undefined ? own!.tls : top.tls;
  const headers = { ...readHeaders(options.headers, `${WHERE}.headers`, secrets), ...readHeaders(profile?.options.headers, `${profile?.where}.headers`, secrets) };
  if (Object.keys(headers).length > 0) {
    out.headers = {};
    const secret: string[] = [];
    for (const [name, h] of Object.entries(headers)) {
      out.headers[name] = h.value;
      if (h.secret) secret.push(name);
    }
    if (secret.length > 0) out.secretHeaders = secret;
  }
  if (secrets.values.size > 0) out.secrets = [...secrets.values];
  return out;
}

/**
 * Reads references. Only the values of the chosen environment are read (`secrets.read` is
 * called for them alone); each value read is remembered, to be redacted from everything shown.
 */
class Secrets {
  readonly values = new Set<string>();
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    readonly problems: string[],
  ) {}

  /** A secret: `{ env: NAME }` only. */
  secret(v: unknown, where: string, what: string, suggested = `PET_API_${what.toUpperCase().replace(/[^A-Za-z0-9]+/g, '_')}`): string | undefined {
    if (v === undefined) {
      this.problems.push(`${where} is missing: give the environment variable that holds the ${what}, such as { env: '${suggested}' }`);
      return undefined;
    }
    if (isReference(v)) return this.read(v, where);
    if (typeof v === 'string') {
      const example = referencedName(v) ?? suggested;
      this.problems.push(
        `${where} must name the environment variable that holds the ${what}, such as { env: '${example}' }, not be the ${what} itself: a secret written in the configuration ends up in git and in logs`,
      );
      return undefined;
    }
    this.problems.push(`${where} must be { env: 'NAME' }, naming the environment variable that holds the ${what}, found ${JSON.stringify(v)}`);
    return undefined;
  }

  /** A literal string or `{ env: NAME }`; a value read from a reference is kept secret all the same. */
  plain(v: unknown, where: string, what: string, required = true): { value: string; secret: boolean } | undefined {
    if (v === undefined) {
      if (required) this.problems.push(`${where} is missing: give the ${what} (a text, or { env: 'NAME' } to read it from an environment variable)`);
      return undefined;
    }
    if (typeof v === 'string') return { value: v, secret: false };
    if (isReference(v)) {
      const value = this.read(v, where);
      return value === undefined ? undefined : { value, secret: true };
    }
    this.problems.push(`${where} must be a text or { env: 'NAME' }, found ${JSON.stringify(v)}`);
    return undefined;
  }

  private read(ref: Record<string, unknown>, where: string): string | undefined {
    unknownKeys(ref, ['env'], where, 'a reference has only', this.problems);
    const name = ref.env;
    if (typeof name !== 'string' || !ENV_NAME.test(name)) {
      this.problems.push(`${where}.env must be the name of an environment variable, such as 'PET_API_TOKEN', found ${JSON.stringify(name)}`);
      return undefined;
    }
    const value = this.env[name];
    if (value === undefined || value === '') {
      this.problems.push(`${where} names the environment variable ${name}, which is not set`);
      return undefined;
    }
    this.values.add(value);
    return value;
  }
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `NAME` of `${NAME}` or `$NAME`, a reference written the shell's way (refused, with the right form suggested). */
function referencedName(text: string): string | undefined {
  const inner = text.startsWith('${') && text.endsWith('}') ? text.slice(2, -1) : text.startsWith('$') ? text.slice(1) : undefined;
  return inner !== undefined && ENV_NAME.test(inner) ? inner : undefined;
}

function isReference(v: unknown): v is Record<string, unknown> & EnvReference {
  return isObject(v) && 'env' in v;
}

const AUTH_TYPES = ['basic', 'bearer', 'oauth2'] as const;
const AUTH_KEYS: Record<(typeof AUTH_TYPES)[number], readonly string[]> = {
  basic: ['type', 'username', 'password'],
  bearer: ['type', 'token'],
  oauth2: ['type', 'tokenUrl', 'clientId', 'clientSecret', 'scope', 'audience', 'clientAuth'],
};

function readAuth(v: unknown, where: string, secrets: Secrets): Auth | undefined {
  if (v === undefined) return undefined;
  const problems = secrets.problems;
  if (!isObject(v)) {
    problems.push(`${where} must be an object such as { type: 'bearer', token: { env: 'PET_API_TOKEN' } }, found ${JSON.stringify(v)}`);
    return undefined;
  }
  const type = v.type;
  if (typeof type !== 'string' || !(AUTH_TYPES as readonly string[]).includes(type)) {
    const near = typeof type === 'string' ? closest(type, AUTH_TYPES) : undefined;
    problems.push(`${where}.type must be one of ${AUTH_TYPES.join(', ')}${near ? ` (did you mean "${near}"?)` : ''}, found ${JSON.stringify(type)}`);
    return undefined;
  }
  const t = type as (typeof AUTH_TYPES)[number];
  unknownKeys(v, AUTH_KEYS[t], where, `${t} auth takes`, problems);
  if (t === 'basic') {
    const username = secrets.plain(v.username, `${where}.username`, 'user name');
    const password = secrets.secret(v.password, `${where}.password`, 'password');
    if (username?.value.includes(':')) problems.push(`${where}.username must not contain ":" (HTTP Basic separates the user name from the password with it)`);
    if (username === undefined || password === undefined) return undefined;
    // The header itself is shown as ***; its base64 could be recognised in a body the service echoes.
    secrets.values.add(Buffer.from(`${username.value}:${password}`).toString('base64'));
    return { type: 'basic', username: username.value, password };
  }
  if (t === 'bearer') {
    const token = secrets.secret(v.token, `${where}.token`, 'token');
    return token === undefined ? undefined : { type: 'bearer', token };
  }
  let tokenUrl: string | undefined;
  if (typeof v.tokenUrl !== 'string' || !isHttpUrl(v.tokenUrl))
    problems.push(
      `${where}.tokenUrl must be an http:// or https:// URL such as https://login.example.com/oauth2/token, found ${typeof v.tokenUrl === 'string' ? JSON.stringify(shownUrl(v.tokenUrl)) : JSON.stringify(v.tokenUrl)}`,
    );
  else if (new URL(v.tokenUrl).username || new URL(v.tokenUrl).password) problems.push(`${where}.tokenUrl must not hold a user name or password: give clientId and clientSecret`);
  else tokenUrl = v.tokenUrl;
  const clientId = secrets.plain(v.clientId, `${where}.clientId`, 'client id');
  const clientSecret = secrets.secret(v.clientSecret, `${where}.clientSecret`, 'client secret');
  for (const k of ['scope', 'audience'] as const)
    if (v[k] !== undefined && typeof v[k] !== 'string') problems.push(`${where}.${k} must be a text (several scopes separated by spaces), found ${JSON.stringify(v[k])}`);
  if (v.clientAuth !== undefined && v.clientAuth !== 'basic' && v.clientAuth !== 'body')
    problems.push(`${where}.clientAuth must be "basic" (the client id and secret in an Authorization header) or "body" (in the form), found ${JSON.stringify(v.clientAuth)}`);
  if (tokenUrl === undefined || clientId === undefined || clientSecret === undefined) return undefined;
  return {
    type: 'oauth2',
    tokenUrl,
    clientId: clientId.value,
    clientSecret,
    scope: v.scope as string | undefined,
    audience: v.audience as string | undefined,
    clientAuth: v.clientAuth === 'body' ? 'body' : 'basic',
  };
}

/** Header names no literal value may be given for: they carry credentials. */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie)$|key|token|secret|passw/i;
// RFC 9110's token characters (\x60 is the backquote).
const HEADER_NAME = /^[!#$%&'*+.^_\x60|~0-9A-Za-z-]+$/;

function readHeaders(v: unknown, where: string, secrets: Secrets): Record<string, { value: string; secret: boolean }> {
  const out: Record<string, { value: string; secret: boolean }> = {};
  if (v === undefined) return out;
  const problems = secrets.problems;
  if (!isObject(v)) {
    problems.push(`${where} must be an object of header names and values such as { 'X-Api-Key': { env: 'PET_API_KEY' } }, found ${JSON.stringify(v)}`);
    return out;
  }
  for (const [name, value] of Object.entries(v)) {
    const at = `${where}[${JSON.stringify(name)}]`;
    if (!HEADER_NAME.test(name)) {
      problems.push(`${at} is not a valid HTTP header name`);
      continue;
    }
    if (typeof value === 'string' && CREDENTIAL_HEADER.test(name)) {
      secrets.secret(value, at, 'value', name.toUpperCase().replace(/[^A-Za-z0-9]+/g, '_'));
      continue;
    }
    const read = secrets.plain(value, at, 'value');
    if (read === undefined) continue;
    if (/[\r\n\0]/.test(read.value)) {
      problems.push(`${at} holds a line break or NUL, which no header value may`);
      continue;
    }
    out[name.toLowerCase()] = read;
  }
  return out;
}

const TLS_KEYS = ['cert', 'key', 'pfx', 'passphrase', 'ca'] as const;

/** Reads the certificate files (bounded, regular files only) and checks Node can use them, naming the file when not. */
function readTls(v: unknown, where: string, secrets: Secrets, rootDir: string): TlsFiles | undefined {
  if (v === undefined) return undefined;
  const problems = secrets.problems;
  if (!isObject(v)) {
    problems.push(`${where} must be an object such as { cert: 'certs/client.pem', key: 'certs/client-key.pem' }, found ${JSON.stringify(v)}`);
    return undefined;
  }
  unknownKeys(v, TLS_KEYS, where, 'tls takes', problems);
  const before = problems.length;
  if (v.pfx !== undefined && (v.cert !== undefined || v.key !== undefined)) problems.push(`${where} takes either pfx (PKCS#12) or cert and key (PEM), not both`);
  if ((v.cert === undefined) !== (v.key === undefined)) problems.push(`${where} needs both cert and key (PEM files), or pfx alone`);
  const file = (k: 'cert' | 'key' | 'pfx' | 'ca'): Buffer | undefined => {
    const given = v[k];
    if (given === undefined) return undefined;
    if (typeof given !== 'string' || given === '') {
      problems.push(`${where}.${k} must be the path of a file (from the Jest rootDir), found ${JSON.stringify(given)}`);
      return undefined;
    }
    try {
      return readInputBytes(path.resolve(rootDir, given), {
        what: k === 'ca' ? 'CA bundle' : k === 'key' ? 'private key' : 'certificate',
        limit: FILE_LIMITS.pemBytes,
        shown: given,
      });
    } catch (e) {
      if (!(e instanceof AccordError)) throw e;
      problems.push(`${where}.${k}: ${e.message}`);
      return undefined;
    }
  };
  const files = { cert: file('cert'), key: file('key'), pfx: file('pfx'), ca: file('ca') };
  const passphrase = v.passphrase === undefined ? undefined : secrets.secret(v.passphrase, `${where}.passphrase`, 'passphrase');
  if (problems.length > before) return undefined;
  const tls: TlsFiles = {};
  if (files.cert) tls.cert = files.cert.toString('latin1');
  if (files.key) tls.key = files.key.toString('latin1');
  if (files.pfx) tls.pfx = files.pfx;
  if (files.ca) tls.ca = files.ca.toString('latin1');
  if (passphrase !== undefined) tls.passphrase = passphrase;
  // Node reads them now, so a wrong passphrase or a key of another certificate is said before any test runs.
  try {
    createSecureContext({ cert: tls.cert, key: tls.key, pfx: tls.pfx, passphrase: tls.passphrase, ca: tls.ca });
  } catch (e) {
    const used = (['cert', 'key', 'pfx', 'ca'] as const).filter((k) => files[k]).map((k) => `${k} ${v[k] as string}`);
    problems.push(`${where}: Node cannot use ${used.join(', ')}${tls.passphrase !== undefined ? ' with the passphrase given' : ''}: ${(e as Error).message}`);
    return undefined;
  }
  return tls;
}
