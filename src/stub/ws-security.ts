import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import type { Scenario } from '../contract/model';
import { AccordError } from '../errors';
import { FILE_LIMITS, readInputText } from '../files';
import type { ParsedBody } from '../http/body';
import type { HttpResponse } from '../http/message';
import { parseJson } from '../json/parse';
import { checkWsSecurity, NonceCache, wsSecurityFault, type WsSecurityCheck } from '../http/ws-security-check';
import { headerEntryNames } from '../http/soap-headers';
import { soapParts } from '../http/ws-security';
import { readSecret, readTokenRules, tokensFor, unknownKeys, type TokenRules } from '../http/ws-security-settings';

/**
 * The stub checking WS-Security (`accord stub --ws-security wss.json`, or `wsSecurity` of
 * startStub): the file gives the secrets (users, trusted certificates) and how lax to be with
 * clocks; the contracts (tags `@ws-security:…`) or the file's `use`/`contracts` say what each
 * scenario asks for. A request that fails gets the SOAP Fault of its version naming the reason;
 * a scenario that asks for nothing is answered as before, at no cost.
 */
export interface WsSecuritySettings {
  /** User name → password, or `{ "env": "NAME" }`. */
  users?: Record<string, unknown>;
  /** PEM files (relative to the settings file), or PEM text with `trustedCertificatePems`. */
  trustedCertificates?: string[];
  trustedCertificatePems?: string[];
  clockSkewSeconds?: number;
  tokenMaxAgeSeconds?: number;
  /** Accept rsa-sha1 signatures and sha1 digests (zeep's and the soap package's defaults); refused by default. */
  allowSha1?: boolean;
  use?: string[];
  contracts?: Record<string, string[]>;
}

const KEYS = ['users', 'trustedCertificates', 'trustedCertificatePems', 'clockSkewSeconds', 'tokenMaxAgeSeconds', 'allowSha1', 'use', 'contracts'] as const;
const DEFAULT_SKEW_SECONDS = 300;
const DEFAULT_MAX_AGE_SECONDS = 300;

export interface StubWsSecurity {
  /** The fault to answer instead (and what `--verbose` says of it), or undefined when the request may be answered. */
  refusal(scenario: Scenario, body: ParsedBody): { fault: HttpResponse; said: string } | undefined;
}

/** Reads `--ws-security <file>`. */
export function readWsSecurityFile(file: string, env: NodeJS.ProcessEnv = process.env): StubWsSecurity {
  const text = readInputText(file, { what: 'WS-Security settings', limit: FILE_LIMITS.exampleBytes });
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (e) {
    throw new AccordError('ACCORD_ERR_USAGE', `${file}: not JSON: ${(e as Error).message}`, {}, { cause: e });
  }
  return stubWsSecurity(value, { where: file, dir: path.dirname(file), env });
}

export function stubWsSecurity(value: unknown, o: { where?: string; dir?: string; env?: NodeJS.ProcessEnv } = {}): StubWsSecurity {
  const where = o.where ?? 'wsSecurity';
  const env = o.env ?? process.env;
  const problems: string[] = [];
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new AccordError('ACCORD_ERR_USAGE', `${where} must be a JSON object such as { "users": { "alice": { "env": "ALICE_PASSWORD" } } }`);
  const s = value as WsSecuritySettings;
  unknownKeys(s, KEYS, where, problems);
  const users = new Map<string, string>();
  if (s.users !== undefined) {
    if (!s.users || typeof s.users !== 'object' || Array.isArray(s.users)) problems.push(`${where}: users must be an object of user name → password`);
    else
      for (const [name, secret] of Object.entries(s.users)) {
        const got = readSecret(secret, `${where}: users["${name}"]`, env, problems);
        if (got !== undefined) users.set(name, got);
      }
  }
  const trusted: X509Certificate[] = [];
  const addPem = (pem: string, shown: string) => {
    try {
      trusted.push(new X509Certificate(pem));
    } catch {
      problems.push(`${where}: ${shown} is not a PEM certificate`);
    }
  };
  for (const f of list(s.trustedCertificates, 'trustedCertificates', where, problems)) {
    const file = path.resolve(o.dir ?? '.', f);
    try {
      addPem(readInputText(file, { what: 'trusted certificate', limit: FILE_LIMITS.pemBytes, shown: f }), f);
    } catch (e) {
      if (!(e instanceof AccordError)) throw e;
      problems.push(`${where}: trustedCertificates: ${e.message}`);
    }
  }
  list(s.trustedCertificatePems, 'trustedCertificatePems', where, problems).forEach((pem, i) => addPem(pem, `trustedCertificatePems[${i}]`));
  const seconds = (v: unknown, name: string, d: number) => {
    if (v === undefined) return d;
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
    problems.push(`${where}: ${name} must be a number of seconds, 0 or more`);
    return d;
  };
  const clockSkewSeconds = seconds(s.clockSkewSeconds, 'clockSkewSeconds', DEFAULT_SKEW_SECONDS);
  const tokenMaxAgeSeconds = seconds(s.tokenMaxAgeSeconds, 'tokenMaxAgeSeconds', DEFAULT_MAX_AGE_SECONDS);
  if (s.allowSha1 !== undefined && typeof s.allowSha1 !== 'boolean') problems.push(`${where}: allowSha1 must be true or false`);
  const rules = readTokenRules(s, where, problems);
  if (problems.length > 0) throw new AccordError('ACCORD_ERR_USAGE', `the WS-Security settings need fixing:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  const check: WsSecurityCheck = { users, trusted, clockSkewSeconds, tokenMaxAgeSeconds, allowSha1: s.allowSha1 === true };
  const nonces = new NonceCache(undefined, (tokenMaxAgeSeconds + 2 * clockSkewSeconds) * 1000);
  return {
    refusal: (scenario, body) => refusal(scenario, body, rules, check, nonces),
  };
}

function list(v: unknown, name: string, where: string, problems: string[]): string[] {
  if (v === undefined) return [];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  problems.push(`${where}: ${name} must be a list of strings`);
  return [];
}

/** The header blocks each scenario's contract names: a mustUnderstand one of them is understood. */
const understoodBy = new WeakMap<Scenario, string[]>();
function understood(scenario: Scenario): string[] {
  let names = understoodBy.get(scenario);
  if (!names) understoodBy.set(scenario, (names = scenario.request.body ? headerEntryNames(scenario.request.body, scenario.scope) : []));
  return names;
}

function refusal(scenario: Scenario, body: ParsedBody, rules: TokenRules, check: WsSecurityCheck, nonces: NonceCache): { fault: HttpResponse; said: string } | undefined {
  const required = tokensFor(scenario, rules);
  if (required.length === 0) return undefined;
  const xml = body.asXml();
  // Not XML at all: the scenario's own matching has said what it thinks; WS-Security is about SOAP.
  if (xml instanceof AccordError) return undefined;
  const soap = soapParts(xml);
  const found = checkWsSecurity(body.text, xml, required, { ...check, understood: understood(scenario) }, nonces);
  if (!found) return undefined;
  const code = found.code === 'MustUnderstand' ? `${soap?.version === '1.2' ? 'env' : 'soap'}:MustUnderstand` : `wsse:${found.code}`;
  return { fault: wsSecurityFault(soap?.version === '1.2', found), said: `refused: WS-Security fault ${code}, ${found.reason}` };
}
