import type { NotCarried, Place, SoapuiProject, WssConfig } from './model';

/**
 * A project's outgoing WS-Security configurations (`con:wssContainer`) as accord's settings: the
 * runner's `wsSecurity` (what a provider's test sends) and the stub's `--ws-security` file (what a
 * stub of the contract requires of its consumers). Secrets are never written: a password is an
 * environment reference (`{ "env": "SOAPUI_WSS_<CONFIG>_PASSWORD" }`) whatever the project held;
 * keystores are not converted (the runner signs with PEM files) and are listed.
 */
export interface WsSecurityPlan {
  /** `testEnvironmentOptions.accord.wsSecurity` of a Jest configuration. */
  runner: Record<string, unknown>;
  /** `accord stub --ws-security <file>`. */
  stub: Record<string, unknown>;
  /** Environment variables the settings name, each with what to put there. */
  env: { name: string; what: string }[];
  /** The configuration the settings come from. */
  config: string;
}

type Skip = (what: string, place: Place, why?: string) => void;

/** `contracts`: each contract's stem and the interfaces it was imported from (plan.ts's ContractPlan). */
export function wsSecurityPlan(project: SoapuiProject, contracts: readonly { stem: string; interfaces: readonly { name: string }[] }[], skip: Skip): WsSecurityPlan | undefined {
  const outgoing = project.wss.filter((w) => w.direction === 'outgoing');
  for (const w of project.wss.filter((x) => x.direction === 'incoming'))
    skip(`incoming WS-Security configuration "${w.name}"`, w.place, 'it decrypts or verifies answers with a keystore, which is not converted');
  for (const c of project.crypto)
    skip(`keystore ${c.source || '(unnamed)'} (${c.type})`, c.place, 'keystores are not converted: give the runner PEM files as wsSecurity certificate and privateKey');
  if (outgoing.length === 0) return undefined;
  // Which operations use which configuration, by name, from the requests of the test steps.
  const uses = new Map<string, Set<string>>();
  const stemOf = new Map(contracts.flatMap((c) => c.interfaces.map((i) => [i.name, c.stem] as const)));
  for (const s of project.suites)
    for (const c of s.cases)
      for (const t of c.steps) {
        const r = t.request;
        if (!r?.outgoingWss) continue;
        const stem = stemOf.get(r.interface);
        if (stem === undefined) continue;
        if (!uses.has(r.outgoingWss)) uses.set(r.outgoingWss, new Set());
        uses.get(r.outgoingWss)!.add(`${stem}.spec#${r.operation}`);
      }
  const chosen = outgoing.find((w) => uses.has(w.name)) ?? outgoing[0];
  for (const w of outgoing) if (w !== chosen) skip(`outgoing WS-Security configuration "${w.name}"`, w.place, `accord's settings hold one user; "${chosen.name}" is carried over`);
  const tokens = tokensOf(chosen, skip);
  const env: WsSecurityPlan['env'] = [];
  const runner: Record<string, unknown> = {};
  const stub: Record<string, unknown> = {};
  const user = chosen.entries.find((e) => e.type === 'Username');
  if (user) {
    const variable = envName(chosen.name, 'PASSWORD');
    const username = user.username && !user.username.includes('${') ? user.username : undefined;
    if (username !== undefined) runner.username = username;
    else {
      const u = envName(chosen.name, 'USERNAME');
      runner.username = { env: u };
      env.push({ name: u, what: `the user name of "${chosen.name}"` });
    }
    runner.password = { env: variable };
    env.push({ name: variable, what: `the password of "${chosen.name}"${user.password ? ' (the project holds one; it is not copied)' : ''}` });
    if (username !== undefined) stub.users = { [username]: { env: variable } };
  }
  const ttl = Number(chosen.entries.find((e) => e.type === 'Timestamp')?.config.timeToLive);
  if (Number.isInteger(ttl) && ttl > 0) runner.timestampTtlSeconds = ttl;
  const used = uses.get(chosen.name);
  if (used && used.size > 0) {
    const contractsKey = Object.fromEntries([...used].sort().map((k) => [k, tokens]));
    runner.contracts = contractsKey;
    stub.contracts = contractsKey;
  } else {
    runner.use = tokens;
    stub.use = tokens;
  }
  if (tokens.includes('Signature')) {
    runner.certificate = 'client-certificate.pem';
    runner.privateKey = 'client-key.pem';
    const p = envName(chosen.name, 'KEY_PASSPHRASE');
    runner.passphrase = { env: p };
    env.push({ name: p, what: `the passphrase of the signing key (the PEM files are to be exported from the keystore of "${chosen.name}")` });
  }
  return { runner, stub, env, config: chosen.name };
}

function tokensOf(w: WssConfig, skip: Skip): string[] {
  const out: string[] = [];
  for (const e of w.entries) {
    if (e.type === 'Username') out.push(e.config.passwordType === 'PasswordDigest' ? 'PasswordDigest' : 'UsernameToken');
    else if (e.type === 'Timestamp') out.push('Timestamp');
    else if (e.type === 'Signature') out.push('Signature');
    else skip(`WS-Security ${e.type} entry of "${w.name}"`, w.place, 'accord sends UsernameToken, Timestamp and Signature only');
  }
  return [...new Set(out)];
}

function envName(config: string, what: string): string {
  let s = '';
  for (const ch of config.toUpperCase()) s += (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ? ch : '_';
  return `SOAPUI_WSS_${s.split('_').filter(Boolean).join('_') || 'CONFIG'}_${what}`;
}

export type { NotCarried };
