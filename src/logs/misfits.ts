import { parseContract } from '../contract/load';
import { isFaultScenario } from '../contract/model';
import { importLogs, readExchanges, type ImportLogOptions } from './import-log';
import { checkExchange, verifyLogs, type UnmatchedCall } from './verify';
import type { Exchange } from './pair';

/**
 * `accord proxy` with the WSDL it found: the recorded calls the WSDL's contract does not take (nearly
 * always a fault it does not declare: ASMX declares none, gSOAP answers a SOAP 1.2 Sender fault with
 * 400, Axis adds detail entries) are typed from the recording, in scenarios added after the WSDL's,
 * which keep its types for everything else.
 *
 * Where a WSDL scenario takes the call's request (only the answer does not fit), the added scenario
 * keeps that scenario's request, typed by the WSDL (its enumerations), and takes from the recording only
 * the status and answer; the recorded request values pin it as its Examples row, so its test sends the
 * call that failed. Anything else (no WSDL scenario takes the request, or the spliced scenario does not
 * take its own calls) is typed from the recording whole.
 */

/** Calls grouped by the WSDL scenario that takes their request and the status they got, at most this many groups; the rest as one. */
const MAX_GROUPS = 20;
export const RECORDED_SUFFIX = 'recorded: the WSDL does not describe it';

const keyOf = (at: { file: string; line: number }) => `${at.file}:${at.line}`;

export interface WithMisfits {
  contract: string;
  warnings: string[];
}

export async function addMisfits(wsdl: string, bad: UnmatchedCall[], files: string[], options: ImportLogOptions, file: string): Promise<WithMisfits | undefined> {
  const all = new Set(bad.map((b) => keyOf(b.at)));
  const only = (keys: Set<string>) => (x: Exchange) => keys.has(keyOf(x.request.at));
  const whole = await importLogs(files, { ...options, examples: true, only: only(all), scenarioSuffix: RECORDED_SUFFIX });
  if (!whole.contract) return undefined;
  const plain: WithMisfits = { contract: join(wsdl, [scenariosOf(whole.contract)]), warnings: whole.report.warnings };
  const groups = new Map<string, { scenario?: string; keys: Set<string> }>();
  for (const b of bad) {
    const k = groups.size < MAX_GROUPS || groups.has(`${b.requestScenario ?? ''}\n${b.status}`) ? `${b.requestScenario ?? ''}\n${b.status}` : '\n*';
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { scenario: k === '\n*' ? undefined : b.requestScenario, keys: new Set() }));
    g.keys.add(keyOf(b.at));
  }
  if (![...groups.values()].some((g) => g.scenario !== undefined)) return plain;
  const blocks: string[] = [];
  for (const g of groups.values()) {
    const part = await importLogs(files, { ...options, examples: true, only: only(g.keys), scenarioSuffix: RECORDED_SUFFIX });
    if (!part.contract) return plain;
    const recorded = scenariosOf(part.contract);
    const spliced = g.scenario !== undefined && part.report.scenarios === 1 ? splice(wsdl, g.scenario, recorded) : undefined;
    blocks.push(spliced ?? recorded);
  }
  const contract = join(wsdl, blocks);
  // The spliced scenarios must take the calls they were made for, or the recording types them whole.
  try {
    const left = await verifyLogs(parseContract(contract, file), files, options);
    if (left.some((b) => all.has(keyOf(b.at)))) return plain;
  } catch {
    return plain;
  }
  return { contract, warnings: whole.report.warnings };
}

function join(wsdl: string, blocks: string[]): string {
  return `${wsdl.trimEnd()}\n\n${blocks.map((b) => b.trimEnd()).join('\n\n')}\n`;
}

/** A written contract's scenarios, from the first scenario's comments and tags on. */
export function scenariosOf(contract: string): string {
  const lines = contract.split('\n');
  const at = lines.findIndex((l) => SCENARIO.test(l));
  let from = at;
  while (from > 0 && /^\s*[#@]/.test(lines[from - 1])) from--;
  return `${lines.slice(from).join('\n').trimEnd()}\n`;
}

const SCENARIO = /^\s*(Scenario|Scenario Outline|Example|Scenario Template):/;
// `\S` first: the white space after the keyword is read one way only (with `\s+(.*)` a line with a line-end character in it was quadratic).
const STEP = /^\s*(Given|When|Then|And|But|\*)\s+(\S.*)$/;

interface Block {
  /** Comments, tags and the Scenario line. */
  head: string[];
  /** Each step with its doc string. */
  steps: { text: string; lines: string[] }[];
  /** From `Examples:` on. */
  examples: string[];
}

/** One scenario's lines (from its comments to the next scenario) read as steps; undefined when something there is not a step. */
function readBlock(lines: string[]): Block | undefined {
  const at = lines.findIndex((l) => SCENARIO.test(l));
  if (at < 0) return undefined;
  const block: Block = { head: lines.slice(0, at + 1), steps: [], examples: [] };
  let inDoc = false;
  for (let i = at + 1; i < lines.length; i++) {
    const l = lines[i];
    const t = l.trim();
    if (inDoc) {
      block.steps[block.steps.length - 1].lines.push(l);
      if (t === '"""') inDoc = false;
      continue;
    }
    if (/^Examples:/.test(t)) {
      block.examples = lines.slice(i);
      break;
    }
    if (t === '' || t.startsWith('#')) continue;
    if (t === '"""' && block.steps.length > 0) {
      block.steps[block.steps.length - 1].lines.push(l);
      inDoc = true;
      continue;
    }
    const m = STEP.exec(l);
    if (!m) return undefined;
    block.steps.push({ text: m[2], lines: [l] });
  }
  return inDoc ? undefined : block;
}

const RESPONSE_STEP = /^(status\s|response-body\b|response-header\b)/;
const DECLARATION = /^(type|enum)\s+(\S+)/;

/**
 * The recorded scenario with the request of the WSDL's scenario `name` (its steps but those of the answer) and the recorded
 * answer (its declarations but the request's type, its status and answer steps); undefined when either cannot be read so.
 */
function splice(wsdl: string, name: string, recorded: string): string | undefined {
  const lines = wsdl.split('\n');
  const start = lines.findIndex((l) => SCENARIO.test(l) && l.trim().replace(SCENARIO, '').trim() === name);
  if (start < 0 || lines.slice(start + 1).findIndex((l) => SCENARIO.test(l) && l.trim().replace(SCENARIO, '').trim() === name) >= 0) return undefined;
  let end = lines.findIndex((l, i) => i > start && SCENARIO.test(l));
  if (end < 0) end = lines.length;
  while (end > start + 1 && /^\s*([#@]|$)/.test(lines[end - 1])) end--;
  const theirs = readBlock(lines.slice(start, end));
  const ours = readBlock(recorded.trimEnd().split('\n'));
  if (!theirs || !ours || theirs.examples.length > 0 || ours.examples.length === 0) return undefined;
  const requestType = ours.steps.map((s) => /^request-body\s+\((\w+)\)\s*$/.exec(s.text)?.[1]).find((x) => x !== undefined);
  if (requestType === undefined) return undefined;
  const declared = new Set(theirs.steps.map((s) => DECLARATION.exec(s.text)?.[2]).filter((x) => x !== undefined));
  const answer = ours.steps.filter((s) => {
    const d = DECLARATION.exec(s.text);
    if (d) return d[2] !== requestType && !declared.has(d[2]);
    return RESPONSE_STEP.test(s.text);
  });
  // A recorded type named as one of the WSDL scenario's would stand for two things: typed whole instead.
  if (ours.steps.some((s) => DECLARATION.exec(s.text) && declared.has(DECLARATION.exec(s.text)![2]))) return undefined;
  const request = theirs.steps.filter((s) => !RESPONSE_STEP.test(s.text));
  const comment = '    # The request as the WSDL types it; the status and answer as recorded.';
  const head = ours.head.slice(0, -1);
  const scenarioLine = ours.head[ours.head.length - 1];
  return [...head, scenarioLine, comment, ...request.flatMap((s) => s.lines), ...answer.flatMap((s) => s.lines), '', ...ours.examples].join('\n');
}

export interface PinnedFaults {
  contract: string;
  /** One line per declared fault that was recorded: pinned by an Examples row, or why it was not. */
  notes: string[];
}

/**
 * A recording typed by a WSDL keeps each recorded call as an example file, which a stub answers; but a `@fault`
 * scenario is tested only for an Examples row naming a request that gets it (which request does is the service's
 * logic). So a declared fault the recording caught would never be run against the service: each `@fault` scenario
 * of the WSDL's contract that recorded calls fit gets those calls' request values as its Examples rows, and the
 * contract is kept only if it still takes every recorded call. When it cannot be pinned so, a note says which
 * fault is left to its example files and why.
 */
export async function pinRecordedFaults(wsdl: string, files: string[], options: ImportLogOptions, file: string): Promise<PinnedFaults> {
  let contract;
  try {
    contract = parseContract(wsdl, file);
  } catch {
    return { contract: wsdl, notes: [] };
  }
  const faults = contract.scenarios.filter((s) => isFaultScenario(s) && s.examples.length === 0);
  if (faults.length === 0) return { contract: wsdl, notes: [] };
  // Calls are told apart by their place in reading order (a HAR written on one line has every call at line 1).
  const byScenario = new Map<string, Set<number>>();
  let seen = 0;
  await readExchanges(
    files,
    (x) => {
      const n = seen++;
      const s = checkExchange(contract, x, options.path).scenario;
      if (!s || !faults.includes(s)) return;
      let keys = byScenario.get(s.name);
      if (!keys) byScenario.set(s.name, (keys = new Set()));
      keys.add(n);
    },
    { ...options, onRead: undefined },
  );
  let text = wsdl;
  const notes: string[] = [];
  for (const [name, keys] of byScenario) {
    let at = 0;
    const only = () => keys.has(at++);
    const part = await importLogs(files, { ...options, examples: true, only });
    const rows = part.contract && part.report.scenarios === 1 ? readBlock(scenariosOf(part.contract).trimEnd().split('\n'))?.examples : undefined;
    const next = rows && rows.length > 0 ? withExamples(text, name, rows) : undefined;
    const why = next === undefined ? 'its recorded requests give no Examples row' : await unpinned(next, name, keys.size, files, options, file);
    if (why === undefined) {
      text = next!;
      notes.push(`fault "${name}": ${keys.size} recorded call${keys.size === 1 ? '' : 's'} pinned as its Examples rows, so its test sends the request that got it`);
    } else notes.push(`fault "${name}" was recorded but is not tested (${why}); its calls are example files a stub answers`);
  }
  return { contract: text, notes };
}

/** Why the contract with the fault's rows cannot be kept (it does not read, or no longer takes a recorded call), or undefined. */
async function unpinned(text: string, name: string, calls: number, files: string[], options: ImportLogOptions, file: string): Promise<string | undefined> {
  try {
    const parsed = parseContract(text, file);
    const s = parsed.scenarios.find((x) => x.name === name);
    if (!s || s.examples.length === 0 || s.examples.length > calls) return 'its Examples rows do not read';
    const left = await verifyLogs(parsed, files, { ...options, onRead: undefined });
    return left.length > 0 ? `with Examples rows ${left.length} recorded call${left.length === 1 ? '' : 's'} no longer fit` : undefined;
  } catch (e) {
    return `its Examples rows do not read: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
  }
}

/** The contract with `rows` (from `Examples:` on) after the steps of scenario `name`; undefined when it is not found once. */
function withExamples(contract: string, name: string, rows: string[]): string | undefined {
  const lines = contract.split('\n');
  const named = (l: string) => SCENARIO.test(l) && l.trim().replace(SCENARIO, '').trim() === name;
  const start = lines.findIndex(named);
  if (start < 0 || lines.slice(start + 1).some(named)) return undefined;
  let end = lines.findIndex((l, i) => i > start && SCENARIO.test(l));
  if (end < 0) end = lines.length;
  while (end > start + 1 && /^\s*([#@]|$)/.test(lines[end - 1])) end--;
  const block = readBlock(lines.slice(start, end));
  if (!block || block.examples.length > 0) return undefined;
  const indent = lines[start].slice(0, lines[start].length - lines[start].trimStart().length);
  const table = rows.map((r) => `${indent}  ${r.trim().startsWith('|') ? '  ' : ''}${r.trim()}`).filter((r) => r.trim() !== '');
  return [...lines.slice(0, end), '', ...table, ...lines.slice(end)].join('\n');
}
