import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { contractStem } from '../../contract/stem';
import { CACHE_DIR, EXPORT_DIR, folderInside, leavesFolder, writeOutputFile } from '../../files';
import { exampleKey } from '../../http/example-key';
import type { ExpectationInput, ScenarioRef } from '../admin/expectations';

/**
 * A consumer's expectations, exported as example files: each expectation a test registers and
 * the stub accepts (so it fits the contract) is written, as it is accepted, to
 *   <dir>/<source>/<contract path without .spec>_examples/<scenario>-<key>.json
 * in the example files' shape, with the scenario it fits, the test that set it and the consumer.
 * `<source>` and the contract's path are those of `.accord/consumes/<source>/<path>` (what
 * `accord contracts pull` fetched), so `accord contracts publish` knows where in the shared
 * repository each belongs; a contract from elsewhere goes under `_local/<file name>`.
 * The file's name holds the key of its request and response (example-key.ts), so the same
 * expectation set by many tests, or by every run, is one file.
 */
export interface ExportSettings {
  /** Where the examples go: `.accord/consumer-examples` under the project by default. */
  dir: string;
  consumer?: string;
}

/**
 * The settings from the client's option or, when it says nothing, `ACCORD_EXPORT_EXAMPLES`
 * (`1` or `true`: the default folder; another value: that folder) and `ACCORD_CONSUMER`.
 */
export function exportSettings(option: boolean | string | undefined, consumer: string | undefined, env: NodeJS.ProcessEnv, cwd: string): ExportSettings | undefined {
  const given = option ?? env.ACCORD_EXPORT_EXAMPLES;
  if (given === undefined || given === false || given === '' || given === '0' || given === 'false') return undefined;
  const dir = given === true || given === '1' || given === 'true' ? EXPORT_DIR : given;
  return { dir: path.resolve(cwd, dir), consumer: consumer ?? (env.ACCORD_CONSUMER || undefined) };
}

/** Where a contract's examples go under the export folder: `<source>/<path>`, without the extension. */
export function exportPlace(contractFile: string, cwd: string): { source: string; rel: string } {
  const parts = path.resolve(cwd, contractFile).split(path.sep);
  for (let i = parts.length - 3; i >= 0; i--) {
    if (parts[i] === CACHE_DIR && parts[i + 1] === 'consumes' && parts.length > i + 3) return { source: parts[i + 2], rel: contractStem(parts.slice(i + 3).join('/')) };
  }
  return { source: '_local', rel: contractStem(parts[parts.length - 1]) };
}

/** An expectation as a consumer example: the file's content, or why it is left out (one line). */
export type ExampleOfExpectation = { example: Record<string, unknown> } | { omitted: string };

/**
 * What an accepted expectation promises of the provider, as an example file (README, "What each
 * expectation exports as"); the one home of the format, for the client's export and the stub's.
 * - plain, typed-placeholder and templated requests and responses: as given (the replay fills
 *   placeholders with values of their types and reads `{{…}}` as the stub does);
 * - `fault: 'soap-fault'`: an example of the contract's fault scenario that answered, with its
 *   status (the provider must answer that declared fault); left out when the stub answered the
 *   standard fault (the contract declares none, so nothing of the provider's is promised);
 * - other faults (connection reset, empty response, malformed body): left out, they simulate a
 *   broken network or server, not an answer of the contract;
 * - `state`: kept; the replay puts the provider in the required state through its provider
 *   states module (a handler named like the state machine);
 * - `delayMs`: kept as a record; the replay does not hold the provider to a delay;
 * - `times`: not kept (how often the test asked, not what the provider answers).
 */
export function exampleOfExpectation(input: ExpectationInput, accepted: ExportAccepted, consumer?: string, test?: string): ExampleOfExpectation {
  if (input.fault !== undefined && input.fault !== 'soap-fault') {
    return { omitted: `its fault "${input.fault}" simulates a broken connection or server, which no contract scenario promises` };
  }
  const example: Record<string, unknown> = {};
  if (test) example.name = test;
  if (input.fault === 'soap-fault') {
    const answered = accepted.fault?.scenario;
    if (!answered) return { omitted: `its SOAP fault is the stub's standard fault: the contract declares no fault of "${accepted.scenario.name}" to hold the provider to` };
    example.scenario = answered.name;
    if (consumer) example.consumer = consumer;
    example['http-request'] = input.request;
    example['http-response'] = { status: accepted.fault!.status };
    example.fault = 'soap-fault';
  } else {
    example.scenario = accepted.scenario.name;
    if (consumer) example.consumer = consumer;
    example['http-request'] = input.request;
    if (input.response) example['http-response'] = input.response;
  }
  if (input.state) example.state = input.state;
  if (input.delayMs !== undefined) example.delayMs = input.delayMs;
  return { example };
}

/** What the stub said when it accepted the expectation (admin/expectations.ts `Accepted`): its scenario, and the fault that answers. */
export interface ExportAccepted {
  scenario: ScenarioRef;
  fault?: { scenario?: ScenarioRef; status: number };
}

/** An export written (`file`), or left out and why. */
export type ExportOutcome = { file: string } | { omitted: string };

/** The example file for an accepted expectation, written (or left as it is: the same key is the same example), or why it is left out. */
export function exportExpectation(input: ExpectationInput, accepted: ExportAccepted, settings: ExportSettings, cwd: string, test?: string): ExportOutcome {
  const made = exampleOfExpectation(input, accepted, settings.consumer, test);
  if ('omitted' in made) return made;
  const example = made.example;
  const key = exampleKey(example).slice(0, 12);
  // The file goes beside the contract the expectation was checked against (a fault scenario is of the same contract).
  const { source, rel } = exportPlace(accepted.scenario.file, cwd);
  // Under the project, every folder from the project down is checked (no link followed); a folder elsewhere is the user's own choice.
  const inside = path.relative(cwd, settings.dir);
  const root = leavesFolder(inside) ? settings.dir : cwd;
  if (root === settings.dir) mkdirSync(root, { recursive: true });
  const folder = folderInside(root, path.join(root === cwd ? inside : '.', source, `${rel}_examples`));
  const file = path.join(folder, `${slug(String(example.scenario))}-${key}.json`);
  writeOutputFile(file, JSON.stringify(example, null, 2) + '\n', { force: true });
  return { file };
}

/** The line a consumer's run prints for an expectation left out of the export. */
export function omittedLine(accepted: ExportAccepted, why: string, test?: string): string {
  return `accord: expectation${test ? ` of test "${test}"` : ''} on scenario "${accepted.scenario.name}" not exported as a consumer example: ${why}\n`;
}

/** A scenario's name as a file name: letters and digits, the rest one `-`. */
function slug(name: string): string {
  let out = '';
  for (const c of name.toLowerCase()) {
    const keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (keep) out += c;
    else if (!out.endsWith('-')) out += '-';
    if (out.length >= 40) break;
  }
  const start = out.startsWith('-') ? 1 : 0;
  const trimmed = out.slice(start, out.endsWith('-') ? -1 : undefined);
  return trimmed === '' ? 'example' : trimmed;
}
