import type { Command } from 'commander';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccordError } from '../../errors';
import { isHttpUrl } from '../../http/target';
import { checkOutputFile, writeOutputFile } from '../../files';
import { inert, printable } from '../../printable';
import { EXIT_FAILED, EXIT_USAGE, ExitError, asUsage, writeDocument, type Io } from '../exit';
import { checkExamplesFolder, examplesFolder, runImportLog } from './import-log';
import { untilSignal, wholeNumber } from './stub';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- package.json sits outside src/
const VERSION = (require('../../../package.json') as { version: string }).version;

interface ProxyCliOptions {
  target: string;
  port: string;
  host: string;
  out?: string;
  check?: string[];
  format?: string;
  report?: string;
  har?: string;
  path?: string;
  examples?: boolean;
  redact?: string[];
  force?: boolean;
  /** A file or URL; false with --no-wsdl; undefined: ask the service for `?wsdl`. */
  wsdl?: string | false;
}

/**
 * `accord proxy --target <url> --out <file.spec>`: forwards every request to the real service
 * and returns its answers; on Ctrl+C (or SIGTERM) writes the recorded traffic as a HAR and runs
 * it through `accord import log` (typing, merging, redaction, the check that every call fits).
 */
export function registerProxy(program: Command, io: Io): void {
  program
    .command('proxy')
    .description('record traffic to a real service through a proxy and write a typed contract from it when stopped, or check the traffic against contracts (--check)')
    .requiredOption('--target <url>', 'the real service, e.g. http://127.0.0.1:8080')
    .option('-o, --out <file.spec>', 'where to write the contract when the proxy stops')
    .option('--check <contract...>', 'check every exchange against these contracts (files or folders) and report each one that breaks them; exit 1 when one did')
    .option('--format <format>', 'with --check, the report at the end: json, junit, sarif or github (default: json with --report, none without)')
    .option('--report <file>', 'with --check, write the report there (default: standard output, when --format is given)')
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', '9000')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--har <file.har>', 'also keep the recorded traffic as a HAR file')
    .option('--path <path>', 'the request path of every SOAP scenario (default: the recorded path)')
    .option('--examples', 'keep the recorded request values as an Examples table, and each recorded call in <out>_examples/ (a stub replays it)')
    .option('--redact <node>', 'never write values of this node (repeatable); passwords and wsse:Security content are always redacted', (v: string, p?: string[]) => [
      ...(p ?? []),
      v,
    ])
    .option('--wsdl <file|url>', "type the recorded operations by this WSDL (default: the service's own, asked for as <path>?wsdl through the proxy when it stops)")
    .option('--no-wsdl', 'type the recorded operations by the recorded values only')
    .option('-f, --force', 'overwrite the output files if they exist')
    .addHelpText(
      'after',
      '\nExamples:\n  accord proxy --target http://127.0.0.1:8080 --port 9000 --out contracts/pets_v1.spec\n  accord proxy --target http://staging:8080 --check contracts/ --format junit --report drift.xml\n',
    )
    .action(async (opts: ProxyCliOptions) => {
      const plan = proxyPlan(opts, io);
      const watch = opts.check === undefined ? undefined : driftWatch(opts.check, io);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when this command runs
      const { startProxy } = require('../../proxy/proxy') as typeof import('../../proxy/proxy');
      const proxy = await startProxy({
        target: opts.target,
        port: plan.port,
        host: opts.host,
        log: (l) => io.stderr(`${l}\n`),
        onExchange: watch?.add,
        record: plan.out !== undefined,
      }).catch((e: unknown) => {
        throw e instanceof AccordError ? new ExitError(EXIT_USAGE, `accord proxy: ${e.describe()}`) : e;
      });
      const stopped = untilSignal();
      const doing = [watch ? 'Checking every exchange against the contracts' : '', plan.out ? `Recording; press Ctrl+C to stop and write ${opts.out}.` : 'Press Ctrl+C to stop.'];
      io.stdout(`accord proxy listening on ${proxy.url}, forwarding to ${opts.target}\n${doing.filter((x) => x !== '').join('. ')}\n`);
      const signal = await stopped;
      const wsdl = await serviceWsdlSet(proxy, opts, plan);
      await proxy.close();
      const drift = watch ? reportDrift(watch, opts, plan, signal, io) : false;
      if (plan.out) await writeRecording(proxy, wsdl, opts, plan, signal, io);
      if (drift) throw new ExitError(EXIT_FAILED);
    });
}

/** What the options ask for, checked before the proxy starts: a recording that cannot be written is lost when the proxy stops. */
interface ProxyPlan {
  port: number;
  /** The --check report's format, and its writer. */
  format: string | undefined;
  reports: typeof import('../../proxy/check-report');
  out: string | undefined;
  harFile: string | undefined;
  reportFile: string | undefined;
  wsdlFile: string | undefined;
}

function proxyPlan(opts: ProxyCliOptions, io: Io): ProxyPlan {
  const port = wholeNumber(opts.port, '--port', 65535, 'accord proxy');
  if (opts.out === undefined && opts.check === undefined)
    throw new ExitError(EXIT_USAGE, 'accord proxy: give --out (record a contract), --check (check the traffic against contracts), or both');
  if ((opts.format !== undefined || opts.report !== undefined) && opts.check === undefined) throw new ExitError(EXIT_USAGE, 'accord proxy: --format and --report go with --check');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when this command runs
  const reports = require('../../proxy/check-report') as typeof import('../../proxy/check-report');
  const format = opts.format ?? (opts.report !== undefined ? 'json' : undefined);
  if (format !== undefined && !reports.DRIFT_FORMATS.includes(format as never))
    throw new ExitError(EXIT_USAGE, `accord proxy: --format must be one of ${reports.DRIFT_FORMATS.join(', ')}, found "${format}"`);
  // Checked before recording, not at stop: a recording that cannot be written is lost when the proxy stops.
  const out = opts.out === undefined ? undefined : path.resolve(io.cwd, opts.out);
  const harFile = opts.har ? path.resolve(io.cwd, opts.har) : undefined;
  const reportFile = opts.report === undefined ? undefined : path.resolve(io.cwd, opts.report);
  const outputs = [
    ...(out ? [[out, opts.out!, '--out']] : []),
    ...(harFile ? [[harFile, opts.har!, '--har']] : []),
    ...(reportFile ? [[reportFile, opts.report!, '--report']] : []),
  ] as [string, string, string][];
  for (const [file, given, option] of outputs) {
    asUsage('accord proxy', () => checkOutputFile(file, { force: opts.force, shown: given, elsewhere: option }));
    if (!isFolder(path.dirname(file))) throw new ExitError(EXIT_USAGE, `accord proxy: cannot write ${given}: its folder does not exist (create it first)`);
  }
  if (new Set(outputs.map(([file]) => file)).size < outputs.length) throw new ExitError(EXIT_USAGE, 'accord proxy: --out, --har and --report must name different files');
  const wsdlFile = typeof opts.wsdl === 'string' && !isHttpUrl(opts.wsdl) ? path.resolve(io.cwd, opts.wsdl) : undefined;
  if (wsdlFile !== undefined && !statSync(wsdlFile, { throwIfNoEntry: false })?.isFile())
    throw new ExitError(EXIT_USAGE, `accord proxy: --wsdl ${printable(opts.wsdl as string)}: no such file`);
  // A recording typed by a WSDL keeps its calls as example files, as --examples does.
  if (out !== undefined && opts.out !== undefined && (opts.examples || opts.wsdl !== false))
    checkExamplesFolder(examplesFolder(out), examplesFolder(opts.out), opts.force, 'accord proxy');
  return { port, format, reports, out, harFile, reportFile, wsdlFile };
}

type RunningProxy = import('../../proxy/proxy').RunningProxy;

/** The service's WSDL to type the recording by, asked for as the proxy stops; undefined when none is asked for. */
interface AskedWsdl {
  /** As the service names it (the proxy's address is gone once it stops). */
  shown: string;
  fetched: Awaited<ReturnType<typeof import('../../proxy/proxy').fetchWsdlSet>>;
}

/**
 * The service's WSDL (`--wsdl URL`, or `<path>?wsdl`) and its imports (JAX-WS's ?xsd=1), asked for
 * through the proxy before it closes (its copy names the proxy's paths, as the recording does), and
 * named in what is said as the service's, not the proxy's. Recording stops first.
 */
async function serviceWsdlSet(proxy: RunningProxy, opts: ProxyCliOptions, plan: ProxyPlan): Promise<AskedWsdl | undefined> {
  const asked =
    plan.out === undefined || plan.wsdlFile || opts.wsdl === false
      ? undefined
      : typeof opts.wsdl === 'string'
        ? { url: opts.wsdl, shown: opts.wsdl }
        : serviceWsdl(proxy.url, opts.target, proxy.har().log.entries);
  proxy.stopRecording();
  if (asked === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when this command runs
  const { fetchWsdlSet } = require('../../proxy/proxy') as typeof import('../../proxy/proxy');
  const base = opts.target.endsWith('/') ? opts.target.slice(0, -1) : opts.target;
  const fetched = await fetchWsdlSet(asked.url, (u) => (u.startsWith(`${proxy.url}/`) ? base + u.slice(proxy.url.length) : u));
  return { shown: asked.shown, fetched };
}

/** `--check`'s end: the report written (or printed) and the summary said; true when an exchange broke the contracts. */
function reportDrift(watch: ReturnType<typeof driftWatch>, opts: ProxyCliOptions, plan: ProxyPlan, signal: string, io: Io): boolean {
  const summary = watch.finish();
  const context = { target: printable(opts.target), version: VERSION, cwd: io.cwd };
  if (plan.format !== undefined) {
    const text = plan.reports.formatDriftReport(summary, plan.format as import('../../proxy/check-report').DriftFormat, context);
    if (plan.reportFile) asUsage('accord proxy', () => writeOutputFile(plan.reportFile!, text, { force: true, shown: opts.report }));
    else writeDocument(io, text);
  }
  io.stderr(`accord proxy: ${signal}; ${plan.reports.summaryLine(summary)}${plan.reportFile ? `; report in ${opts.report}` : ''}\n`);
  return summary.broken > 0;
}

/** `--out`: the recording written as a HAR (kept with --har) and run through `accord import log`, typed by the WSDL when there is one. */
async function writeRecording(proxy: RunningProxy, asked: AskedWsdl | undefined, opts: ProxyCliOptions, plan: ProxyPlan, signal: string, io: Io): Promise<void> {
  const { harFile } = plan;
  const fetched = asked?.fetched;
  const har = proxy.har();
  const n = har.log.entries.length;
  const notes = [proxy.dropped ? `${proxy.dropped} more not recorded` : '', proxy.cutOff ? `${proxy.cutOff} cut off, still waiting on the target when stopped` : ''].filter(
    (x) => x !== '',
  );
  io.stderr(`accord proxy: ${signal}; recorded ${n} call${n === 1 ? '' : 's'}${notes.length ? ` (${notes.join('; ')})` : ''}\n`);
  if (n === 0) throw new ExitError(EXIT_USAGE, 'accord proxy: no call was recorded; nothing written');
  // The raw recording holds whatever the calls carried: readable by its owner only, kept or not. The contract is redacted.
  const temp = harFile && !(fetched && 'files' in fetched) ? undefined : mkdtempSync(path.join(tmpdir(), 'accord-proxy-'));
  const file = harFile ?? path.join(temp!, 'recording.har');
  let wsdl = plan.wsdlFile;
  if (fetched && 'files' in fetched) {
    for (const f of fetched.files) writeFileSync(path.join(temp!, f.name), f.text, { mode: 0o600 });
    wsdl = path.join(temp!, fetched.files[0].name);
  } else if (fetched) io.stderr(`accord proxy: no WSDL (${printable(fetched.why)}); the recorded values type the contract\n`);
  // Named as the service's address: the proxy's is gone once it stops, and so is the copy.
  const wsdlSource = wsdl && asked ? printable(asked.shown) : undefined;
  asUsage('accord proxy', () => writeOutputFile(file, proxy.harText(), { force: opts.force || temp !== undefined, shown: opts.har, mode: 0o600, elsewhere: '--har' }));
  const target = printable(opts.target);
  const header = harFile
    ? [`Generated by "accord proxy" from ${n} call${n === 1 ? '' : 's'} recorded to ${target}, kept in ${opts.har}.`]
    : [`Generated by "accord proxy" from ${n} call${n === 1 ? '' : 's'} recorded to ${target} (the recording was not kept; --har keeps it).`];
  let ok = false;
  try {
    // A call that cannot be read is left out (and listed), not a reason to lose the others.
    await runImportLog(
      [harFile ? opts.har! : file],
      {
        output: opts.out,
        path: opts.path,
        examples: opts.examples,
        redact: opts.redact,
        force: opts.force,
        verify: true,
        skipInvalid: true,
        feature: `Recorded from ${target}`,
        provenance: { header, cite: harFile !== undefined },
        wsdl,
        wsdlSource,
        onWsdlProblem: (why) => io.stderr(`accord proxy: the WSDL ${wsdlSource ?? opts.wsdl} cannot be used (${printable(why)}); the recorded values type the contract\n`),
        command: 'accord proxy',
      },
      io,
    );
    ok = true;
  } finally {
    if (temp && (ok || harFile)) rmSync(temp, { recursive: true, force: true });
    else if (temp) io.stderr(`accord proxy: the recording is kept in ${file} (readable by you only)\n`);
  }
}

/** The checker of `--check`: the contracts loaded now, so a contract that does not load stops the proxy before it starts. */
function driftWatch(sources: string[], io: Io) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with --check
  const { loadContracts } = require('../../stub/contracts') as typeof import('../../stub/contracts');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- likewise
  const { DriftWatch } = require('../../proxy/check') as typeof import('../../proxy/check');
  const contracts = asUsage('accord proxy', () =>
    loadContracts(
      sources.map((s) => path.resolve(io.cwd, s)),
      (line) => io.stderr(`accord proxy: --check: ${line}\n`),
    ),
  );
  // One line per exchange that breaks them, as it happens; inert, so a CI log does not read it as a command.
  return new DriftWatch(contracts, (line) => io.stderr(`${inert(line)}\n`));
}

/**
 * `<path>?wsdl` for the path of the first recorded POST (where a SOAP service publishes its WSDL), asked
 * of the proxy (whose copy names the proxy's paths, as the recording does) and shown as the target's; undefined with none.
 */
function serviceWsdl(proxyUrl: string, target: string, entries: { request: { method: string; url: string } }[]): { url: string; shown: string } | undefined {
  const post = entries.find((e) => e.request.method === 'POST');
  if (!post) return undefined;
  const p = new URL(post.request.url).pathname;
  return { url: `${proxyUrl}${p}?wsdl`, shown: `${target.endsWith('/') ? target.slice(0, -1) : target}${p}?wsdl` };
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
