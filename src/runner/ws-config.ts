import path from 'node:path';
import { AccordError } from '../errors';
import { FILE_LIMITS, readInputText } from '../files';
import { readSecret, readTokenRules, unknownKeys, type TokenRules } from '../http/ws-security-settings';

/**
 * The runner's SOAP settings, a block of their own in `testEnvironmentOptions.accord`:
 *
 *   wsSecurity: { username, password: { env: 'SVC_PASSWORD' }, certificate, privateKey, passphrase,
 *                 timestampTtlSeconds, use: ['PasswordDigest', 'Timestamp'], contracts: { 'orders.spec': ['Signature'] } }
 *   addressing: true        (WS-Addressing headers on every SOAP request; or tag a contract @ws-addressing)
 *   mtom: true              (base64Binary content sent as MTOM/XOP parts; or tag a contract @mtom)
 *   states: './test/states.js'   (the provider states module: src/runner/states.ts)
 *
 * Secrets are given as `{ env: 'NAME' }`; files are read relative to the directory Jest runs in.
 * Everything wrong is a problem sentence: every test then fails with it.
 */
export const WS_OPTIONS = ['wsSecurity', 'addressing', 'mtom', 'states'] as const;

const WS_SECURITY_KEYS = ['username', 'password', 'certificate', 'privateKey', 'passphrase', 'timestampTtlSeconds', 'use', 'contracts'] as const;
/** How long a written Timestamp is valid when wsSecurity.timestampTtlSeconds does not say. */
export const DEFAULT_TTL_SECONDS = 300;

export interface RunnerWsSecurity {
  username?: string;
  password?: string;
  signature?: { certificatePem: string; privateKeyPem: string; passphrase?: string };
  timestampTtlSeconds: number;
  rules: TokenRules;
}

export interface WsRunnerConfig {
  wsSecurity?: RunnerWsSecurity;
  addressing: boolean;
  mtom: boolean;
  /** Absolute path of the states module. */
  states?: string;
}

export function resolveWsConfig(options: Record<string, unknown>, env: NodeJS.ProcessEnv, problems: string[], cwd = process.cwd()): WsRunnerConfig | undefined {
  if (WS_OPTIONS.every((k) => options[k] === undefined)) return undefined;
  const where = 'testEnvironmentOptions.accord';
  const out: WsRunnerConfig = { addressing: bool(options.addressing, `${where}.addressing`, problems), mtom: bool(options.mtom, `${where}.mtom`, problems) };
  if (options.states !== undefined) {
    if (typeof options.states === 'string' && options.states !== '') out.states = path.resolve(cwd, options.states);
    else problems.push(`${where}.states must be the path of a module, such as "./test/states.js"`);
  }
  const ws = options.wsSecurity;
  if (ws === undefined) return out;
  const at = `${where}.wsSecurity`;
  if (!ws || typeof ws !== 'object' || Array.isArray(ws)) {
    problems.push(`${at} must be an object such as { username: 'alice', password: { env: 'SERVICE_PASSWORD' }, use: ['PasswordDigest'] }`);
    return out;
  }
  const o = ws as Record<string, unknown>;
  unknownKeys(o, WS_SECURITY_KEYS, at, problems);
  const config: RunnerWsSecurity = { timestampTtlSeconds: DEFAULT_TTL_SECONDS, rules: readTokenRules(o, at, problems) };
  if (o.username !== undefined) config.username = readSecret(o.username, `${at}.username`, env, problems);
  if (o.password !== undefined) config.password = readSecret(o.password, `${at}.password`, env, problems, true);
  if ((config.username === undefined) !== (config.password === undefined) && problems.length === 0) problems.push(`${at}: username and password go together`);
  if (o.timestampTtlSeconds !== undefined) {
    if (typeof o.timestampTtlSeconds === 'number' && o.timestampTtlSeconds > 0) config.timestampTtlSeconds = o.timestampTtlSeconds;
    else problems.push(`${at}.timestampTtlSeconds must be a number of seconds above 0`);
  }
  if (o.certificate !== undefined || o.privateKey !== undefined) {
    const certificatePem = pemFile(o.certificate, `${at}.certificate`, 'WS-Security certificate', cwd, problems);
    const privateKeyPem = pemFile(o.privateKey, `${at}.privateKey`, 'WS-Security private key', cwd, problems);
    const passphrase = o.passphrase === undefined ? undefined : readSecret(o.passphrase, `${at}.passphrase`, env, problems, true);
    if (certificatePem !== undefined && privateKeyPem !== undefined) config.signature = { certificatePem, privateKeyPem, passphrase };
  }
  out.wsSecurity = config;
  return out;
}

function bool(v: unknown, where: string, problems: string[]): boolean {
  if (v === undefined || v === false) return false;
  if (v === true) return true;
  problems.push(`${where} must be true or false, found ${JSON.stringify(v)}`);
  return false;
}

function pemFile(v: unknown, where: string, what: string, cwd: string, problems: string[]): string | undefined {
  if (typeof v !== 'string' || v === '') {
    problems.push(`${where} must be the path of a PEM file (the certificate and the private key go together)`);
    return undefined;
  }
  try {
    return readInputText(path.resolve(cwd, v), { what, limit: FILE_LIMITS.pemBytes, shown: v });
  } catch (e) {
    if (!(e instanceof AccordError)) throw e;
    problems.push(`${where}: ${e.message}`);
    return undefined;
  }
}
