import type { Scenario } from '../contract/model';
import { closest } from '../suggest';
import { tokensOfTags, WS_SECURITY_TOKENS, type WsSecurityToken } from './ws-security';

/**
 * What the runner's `wsSecurity` block and the stub's `--ws-security` file have in common: a
 * secret given as an environment variable's name, the tokens to use (`use`) and a map of them by
 * contract file or operation (`contracts`). Read here once for both; problems come back as
 * sentences, the caller decides whether they fail tests or stop the stub.
 */
export interface TokenRules {
  /** Tokens for every SOAP scenario that neither a tag nor `contracts` names. */
  use: WsSecurityToken[];
  /** `orders.spec` or `orders.spec#getOrder` (a scenario's name or its SOAPAction) → tokens; the longer key wins. */
  contracts: Map<string, WsSecurityToken[]>;
}

/** `"text"` or `{ "env": "NAME" }`: the value, or a problem naming what is missing. */
export function readSecret(value: unknown, where: string, env: NodeJS.ProcessEnv, problems: string[], referenceOnly = false): string | undefined {
  if (typeof value === 'string' && referenceOnly) {
    // The Jest configuration is committed: a password in it ends up in git and in logs (as the runner's `auth` refuses one).
    problems.push(`${where} must name the environment variable that holds it, such as { env: 'SERVICE_PASSWORD' }, not be the secret itself`);
    return undefined;
  }
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && typeof (value as { env?: unknown }).env === 'string') {
    const name = (value as { env: string }).env;
    const got = env[name];
    if (got === undefined || got === '') {
      problems.push(`${where} names the environment variable ${name}, which is not set`);
      return undefined;
    }
    return got;
  }
  problems.push(`${where} must be a string or { "env": "VARIABLE" } (the name of an environment variable holding it), found ${kind(value)}`);
  return undefined;
}

/** Never the value itself: it may be a secret put in the wrong place. */
function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? `an object with keys ${Object.keys(value as object).join(', ') || '(none)'}` : `a ${typeof value}`;
}

export function readTokens(value: unknown, where: string, problems: string[]): WsSecurityToken[] {
  if (!Array.isArray(value)) {
    problems.push(`${where} must be a list of ${WS_SECURITY_TOKENS.join(', ')}, found ${kind(value)}`);
    return [];
  }
  const out: WsSecurityToken[] = [];
  for (const v of value) {
    const t = WS_SECURITY_TOKENS.find((k) => typeof v === 'string' && k.toLowerCase() === v.toLowerCase());
    if (t) out.push(t);
    else {
      const near = typeof v === 'string' ? closest(v, WS_SECURITY_TOKENS) : undefined;
      problems.push(`${where}: unknown token ${JSON.stringify(v)}${near ? ` (did you mean "${near}"?)` : ''}; the tokens are ${WS_SECURITY_TOKENS.join(', ')}`);
    }
  }
  return out;
}

export function readTokenRules(o: { use?: unknown; contracts?: unknown }, where: string, problems: string[]): TokenRules {
  const rules: TokenRules = { use: o.use === undefined ? [] : readTokens(o.use, `${where}.use`, problems), contracts: new Map() };
  if (o.contracts !== undefined) {
    if (!o.contracts || typeof o.contracts !== 'object' || Array.isArray(o.contracts))
      problems.push(`${where}.contracts must be an object such as { "orders.spec": ["PasswordDigest"] }, found ${kind(o.contracts)}`);
    else for (const [k, v] of Object.entries(o.contracts)) rules.contracts.set(k.replace(/\\/g, '/'), readTokens(v, `${where}.contracts["${k}"]`, problems));
  }
  return rules;
}

/** Unknown keys of an object, each a problem with a did-you-mean. */
export function unknownKeys(o: object, known: readonly string[], where: string, problems: string[]): void {
  for (const key of Object.keys(o)) {
    if (known.includes(key)) continue;
    const near = closest(key, known);
    problems.push(`unknown option "${key}" in ${where}${near ? ` (did you mean "${near}"?)` : ''}; the options are ${known.join(', ')}`);
  }
}

/** The SOAPAction a scenario's request names literally, unquoted. */
function soapActionOf(s: Scenario): string | undefined {
  const h = s.request.headers.find((x) => x.name.toLowerCase() === 'soapaction');
  const v = h?.pattern.kind === 'literal' ? String(h.pattern.value ?? '') : undefined;
  return v?.replace(/^"|"$/g, '');
}

function fileFits(file: string, key: string): boolean {
  const f = file.replace(/\\/g, '/');
  return f === key || f.endsWith(`/${key}`);
}

/** The tokens a scenario needs: its tags (`@ws-security:…`), else the most specific `contracts` entry, else `use`. */
export function tokensFor(s: Scenario, rules: TokenRules): WsSecurityToken[] {
  const tagged = tokensOfTags(s.tags);
  if (tagged.length > 0) return tagged;
  let best: { length: number; tokens: WsSecurityToken[] } | undefined;
  for (const [key, tokens] of rules.contracts) {
    const hash = key.indexOf('#');
    const file = hash < 0 ? key : key.slice(0, hash);
    const op = hash < 0 ? undefined : key.slice(hash + 1);
    if (!fileFits(s.file, file)) continue;
    if (op !== undefined && op !== s.name && op !== soapActionOf(s)) continue;
    if (!best || key.length > best.length) best = { length: key.length, tokens };
  }
  return best ? best.tokens : rules.use;
}
