import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { formatLocation } from '../../errors';
import { printable } from '../../printable';
import { FILE_LIMITS, readInputText } from '../../files';
import { DEFAULT_MAX_BODY_BYTES } from '../../limits';
import { parseTarget } from '../../http/forward';
import { apiText, type Scenario } from '../../contract/model';
import type { NotServed, ReloadResult } from '../../stub';
import { EXIT_USAGE, ExitError, asUsage, type Io } from '../exit';
import { isHttpUrl } from '../../http/target';
import { fetchWsdlFiles, removeFetched, type FetchedWsdl } from './import-wsdl-url';

/**
 * `accord stub <contract-or-folder>...`: serves the contracts until SIGINT or
 * SIGTERM, then closes the server and returns (exit 0). The stub module is
 * loaded only when this command runs, so other commands do not pay for it and
 * the stub does not pay for theirs.
 */
export function registerStub(program: Command, io: Io): void {
  program
    .command('stub')
    .description('serve contracts as a stub: answers requests that match a scenario, explains the ones that do not')
    .argument(
      '[contracts...]',
      '.spec files, folders searched recursively for them, .wsdl files, or WSDL URLs (fetched with what they import) (default: the contracts accord.config.json consumes, after accord contracts pull)',
    )
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', '9000')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--max-body-bytes <bytes>', 'largest request body accepted; larger gets 413', String(DEFAULT_MAX_BODY_BYTES))
    .option('-v, --verbose', 'log every request and the scenario that answered it')
    .option('--cors', "answer CORS preflights and allow every origin on the contracts' paths (for browser apps; never on the stub's own API)")
    .option(
      '--allow-host <name>',
      "a host name the stub's API (/_accord/) answers under, besides IP addresses, localhost and --host (a container's name); repeatable",
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--strict', 'answer only requests an expectation or an example (example file, Examples row) answers; others get 400 saying why')
    .option(
      '--passthrough <url>',
      'send a request that fits a scenario but no expectation or example answers to this real service, return its answer and report where it breaks the contract (drift)',
    )
    .option('--delay <ms>', 'wait before every answer: milliseconds, or a range such as 100-500 for a random wait')
    .option('--tls', 'serve HTTPS with a self-signed certificate made at start-up (its PEM at GET /_accord/certificate)')
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM); needs --tls-key')
    .option('--tls-key <file>', 'the private key (PEM) of --tls-cert')
    .option('--tls-client-ca <file>', 'with --tls or --tls-cert: require a client certificate signed by this CA (PEM); the journal records which one each request came with')
    .option('--tls-client-optional', 'with --tls-client-ca: serve clients without a certificate too (one that does not verify is still refused)')
    .option(
      '--ws-security <file>',
      'check WS-Security (UsernameToken, Timestamp, X.509 signature) with the users and trusted certificates in this JSON file; see docs/ws-security.md',
    )
    .option('--allow-unresolved', 'serve a .wsdl whose imports cannot all be read: those nodes are (anything), answering and accepting any content; one warning line per such node')
    .option('-w, --watch', 'reload when a contract or example file changes (a change that does not load keeps the previous version serving)')
    .addHelpText('after', '\nExamples:\n  accord stub contracts/\n  accord stub contracts/soap/api_pet_v1.spec --port 8080 --verbose\n  accord stub contracts/ --watch\n')
    .action(async (paths: string[], opts: StubCliOptions) => {
      const port = wholeNumber(opts.port, '--port', 65535);
      const maxBodyBytes = wholeNumber(opts.maxBodyBytes, '--max-body-bytes', Number.MAX_SAFE_INTEGER);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (see above); require, not import(), so Jest needs no VM modules
      const { startStub, parseDelay } = require('../../stub') as typeof import('../../stub');
      const tls = tlsOption(opts);
      const clientCertificates = clientCertificatesOption(opts, tls !== undefined);
      // Checked here so the message names the option the user typed, not the library's passThrough.
      if (opts.passthrough !== undefined) asUsage('accord stub', () => parseTarget(opts.passthrough!, '--passthrough'));
      const wsSecurity = opts.wsSecurity === undefined ? undefined : asUsage('accord stub', () => wsSecurityFile(path.resolve(io.cwd, opts.wsSecurity!)));
      const delayMs = opts.delay === undefined ? undefined : asUsage('accord stub', () => parseDelay(opts.delay!));
      // Paths stay as typed when they are relative to this process, so reports name files the way the user does.
      const given = paths.length > 0 ? paths : consumed(io.cwd, io);
      const local = io.cwd === process.cwd() ? given : given.map((p) => (isHttpUrl(p) ? p : path.resolve(io.cwd, p)));
      // A WSDL by URL (`accord stub http://host/orders?wsdl`): fetched with what it imports (as `accord import wsdl <URL>` does) into a temporary folder, served from there.
      const fetched: FetchedWsdl[] = [];
      const contracts: string[] = [];
      for (const p of local) {
        if (!isHttpUrl(p)) {
          contracts.push(p);
          continue;
        }
        const f = await fetchWsdlFiles(p, { allowUnresolved: opts.allowUnresolved }, 'accord stub', io, 'not served').catch((e: unknown) => {
          fetched.forEach(removeFetched);
          throw e;
        });
        fetched.push(f);
        contracts.push(f.wsdl);
      }
      const onReload = (r: ReloadResult) => {
        if (r.ok) io.stdout(`accord stub: contracts changed, reloaded. ${servedLines(r.served, r.notServed, io.cwd).join('\n')}\n`);
        else io.stderr(`accord stub: contracts changed but do not load; still serving the previous version:\n${r.error.describe()}\n`);
      };
      const stub = await startStub({
        contracts,
        port,
        host: opts.host,
        maxBodyBytes,
        verbose: opts.verbose,
        cors: opts.cors,
        allowedHosts: opts.allowHost,
        watch: opts.watch,
        strict: opts.strict,
        allowUnresolved: opts.allowUnresolved,
        delayMs,
        tls,
        clientCertificates,
        wsSecurity,
        passThrough: opts.passthrough,
        ...exportOption(io),
        onReload,
        log: (line) => io.stderr(`${line}\n`),
      }).catch((e: unknown) => {
        fetched.forEach(removeFetched);
        throw e;
      });
      const lines = [`accord stub listening on ${stub.url}`, ...servedLines(stub.served, stub.notServed, io.cwd)];
      if (opts.watch) lines.push('Watching the contracts for changes.');
      if (opts.strict) lines.push('Strict: only expectations and examples answer.');
      if (opts.passthrough) lines.push(`Pass-through: requests no expectation or example answers go to ${printable(opts.passthrough)}; drift is logged.`);
      if (wsSecurity) lines.push(`Checking WS-Security with ${opts.wsSecurity}.`);
      const exporting = exportOption(io);
      if (exporting.exportExamples)
        lines.push(
          `Exporting each expectation set through ${stub.url}/_accord/expectations as a consumer example, into ${printable(path.relative(io.cwd, exporting.exportExamples) || '.')}${exporting.consumer ? ` (consumer ${printable(exporting.consumer)})` : ''}.`,
        );
      if (clientCertificates) lines.push(`Client certificates signed by ${opts.tlsClientCa}: ${clientCertificates.required ? 'required' : 'optional'}.`);
      if (opts.tls && stub.certificate) {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with --tls
        const { fingerprint } = require('../../stub/tls') as typeof import('../../stub/tls');
        lines.push(`HTTPS with a self-signed certificate (SHA-256 ${fingerprint(stub.certificate)}); its PEM is at ${stub.url}/_accord/certificate`);
      }
      lines.push('Press Ctrl+C to stop.');
      // Listen before saying so: a supervisor may send SIGTERM as soon as it reads the line.
      const stopped = untilSignal();
      io.stdout(`${lines.join('\n')}\n`);
      const signal = await stopped;
      io.stderr(`accord stub: ${signal}, closing\n`);
      await stub.close();
      fetched.forEach(removeFetched);
    });
}

/**
 * ACCORD_EXPORT_EXAMPLES (and ACCORD_CONSUMER), as a Jest consumer's run reads them: the stub
 * exports what is set through its API, for consumers whose tests are not Node's.
 */
function exportOption(io: Io): { exportExamples?: string; consumer?: string } {
  if (!process.env.ACCORD_EXPORT_EXAMPLES) return {};
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when exporting
  const { exportSettings } = require('../../stub/client/export-examples') as typeof import('../../stub/client/export-examples');
  const settings = exportSettings(undefined, undefined, process.env, io.cwd);
  return settings ? { exportExamples: settings.dir, ...(settings.consumer ? { consumer: settings.consumer } : {}) } : {};
}

/** With no paths: what accord.config.json consumes, as `accord contracts pull` left it. */
function consumed(cwd: string, io: Io): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only without paths
  const shared = require('../../shared') as typeof import('../../shared');
  const config = shared.readProjectConfig(cwd);
  const notice = config && shared.settingsNotice(config, 'accord stub');
  if (notice) io.stderr(`${notice}\n`);
  const dirs = config ? config.sources.filter((s) => s.consumes.length > 0).map((s) => shared.cachePaths(config, s).consumes) : [];
  if (dirs.length === 0)
    throw new ExitError(EXIT_USAGE, 'accord stub: give the contracts to serve (files or folders), or name the ones this project consumes in accord.config.json');
  const missing = dirs.filter((d) => !existsSync(d));
  if (missing.length > 0) throw new ExitError(EXIT_USAGE, `accord stub: ${path.relative(cwd, missing[0])} is not there yet: run accord contracts pull first`);
  return dirs;
}

interface StubCliOptions {
  port: string;
  host: string;
  maxBodyBytes: string;
  verbose?: boolean;
  cors?: boolean;
  allowHost: string[];
  watch?: boolean;
  strict?: boolean;
  allowUnresolved?: boolean;
  passthrough?: string;
  delay?: string;
  tls?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  tlsClientCa?: string;
  tlsClientOptional?: boolean;
  wsSecurity?: string;
}

function clientCertificatesOption(opts: StubCliOptions, https: boolean): { ca: string; required: boolean } | undefined {
  if (opts.tlsClientCa === undefined) {
    if (opts.tlsClientOptional) throw new ExitError(EXIT_USAGE, 'accord stub: --tls-client-optional goes with --tls-client-ca');
    return undefined;
  }
  if (!https) throw new ExitError(EXIT_USAGE, 'accord stub: --tls-client-ca needs HTTPS: give --tls, or --tls-cert and --tls-key');
  const ca = asUsage('accord stub', () => readInputText(opts.tlsClientCa!, { what: 'client CA certificate', limit: FILE_LIMITS.pemBytes }));
  return { ca, required: !opts.tlsClientOptional };
}

function wsSecurityFile(file: string) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with --ws-security
  return (require('../../stub/ws-security') as typeof import('../../stub/ws-security')).readWsSecurityFile(file);
}

function tlsOption(opts: StubCliOptions): true | { cert: string; key: string } | undefined {
  if ((opts.tlsCert === undefined) !== (opts.tlsKey === undefined)) throw new ExitError(EXIT_USAGE, 'accord stub: --tls-cert and --tls-key go together');
  if (opts.tlsCert !== undefined && opts.tls) throw new ExitError(EXIT_USAGE, 'accord stub: --tls makes its own certificate; give either --tls or --tls-cert/--tls-key');
  if (opts.tls) return true;
  if (opts.tlsCert === undefined) return undefined;
  const read = (file: string, what: string) => asUsage('accord stub', () => readInputText(file, { what, limit: FILE_LIMITS.pemBytes }));
  return { cert: read(opts.tlsCert, 'TLS certificate'), key: read(opts.tlsKey!, 'TLS key') };
}

function servedLines(served: readonly Scenario[], notServed: readonly NotServed[], cwd: string): string[] {
  const lines = [`Serving ${served.length} scenario${served.length === 1 ? '' : 's'}:`];
  for (const s of served) {
    lines.push(`  ${apiText(s)}  "${s.name}"${s.wip ? ' @WIP' : ''}  (${formatLocation({ file: relative(cwd, s.file), line: s.line })})`);
  }
  if (notServed.length > 0) {
    lines.push('Not served:');
    for (const n of notServed) lines.push(`  "${n.scenario.name}" (${formatLocation({ file: relative(cwd, n.scenario.file), line: n.scenario.line })}): ${n.reason}`);
  }
  return lines;
}

function relative(cwd: string, file: string): string {
  const r = path.relative(cwd, file);
  return r.startsWith('..') ? file : r;
}

export function wholeNumber(text: string, option: string, max: number, command = 'accord stub'): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n > max) throw new ExitError(EXIT_USAGE, `${command}: ${option} must be a whole number from 0 to ${max}, found "${text}"`);
  return n;
}

/**
 * Resolves with what stopped the server: SIGINT, SIGTERM, or (under `npx`/`npm exec` only) the
 * parent gone. `npx accord stub &` then `kill $!` kills npm, whose `sh -c` goes with it without
 * passing the signal on: the stub, left to init, would hold its port until the machine restarts.
 * So a server started by npm exec stops when the process that started it goes (its parent
 * changes: a Unix orphan is handed to init or a subreaper). Not otherwise: `accord stub &` from a
 * script that then ends is a stub meant to outlive it.
 */
export function untilSignal(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve) => {
    const parent = process.ppid;
    const watch =
      env.npm_command === 'exec' && process.platform !== 'win32'
        ? setInterval(() => process.ppid !== parent && stop(`the process that started it under npm exec (pid ${parent}) is gone`), PARENT_POLL_MS)
        : undefined;
    watch?.unref();
    const stop = (why: string) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      if (watch) clearInterval(watch);
      resolve(why);
    };
    const on = (signal: NodeJS.Signals) => stop(`${signal} received`);
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/** How often a server started by npm exec looks whether its parent is still there. */
const PARENT_POLL_MS = 500;
