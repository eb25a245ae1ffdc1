import path from 'node:path';
import { REQUEST_BODY_COLUMN, type Contract, type Scenario, type TestCase } from '../../../src/contract/model';
import type { CaseResult, RunOptions } from '../../../src/runner/run-case';
import type { RunningStub, StubOptions } from '../../../src/stub';
import type { ImportResult } from '../../../src/wsdl/import';
import { choiceNames, classify, type ErrorClass } from './classify';
import { buildSchemaSet, type SchemaSet } from './schema-set';
import { payloadsOf, SchemaLoadError, validateAll } from './validate';

/**
 * The XSD validity of what accord generates for one WSDL: its importer's
 * contract, the requests its runner sends (one per seed per test case) and
 * the answers its stub gives to them, each payload checked by xmllint against
 * the WSDL's own schemas. accord is passed in, so the Jest suite measures
 * src/ and scripts/xsd-validity.js measures the built dist/.
 */
export interface Accord {
  importWsdl(file: string): Pick<ImportResult, 'text'>;
  parseContract(text: string, file: string): Contract;
  testCases(c: Contract): TestCase[];
  isFaultScenario(s: Scenario): boolean;
  buildRequest(tc: TestCase, seed?: number): { body: string };
  runCase(tc: TestCase, o: RunOptions): Promise<CaseResult>;
  startStub(o: StubOptions): Promise<RunningStub>;
}

export interface Failure {
  direction: 'request' | 'response';
  scenario: string;
  /** `{ns}local` of the payload (Body child or Header block). */
  element: string;
  part: 'body' | 'header';
  errors: { message: string; cls: ErrorClass }[];
}

export interface Measurement {
  wsdl: string;
  requests: { valid: number; total: number };
  responses: { valid: number; total: number };
  failures: Failure[];
  /** Set when xmllint cannot compile the WSDL's schemas: no numbers then. */
  loadError?: string;
  /** Remote or missing schema files, schema compiler warnings. */
  notes: string[];
  rpcOperations: number;
  /** Messages with no payload at all (an empty Body): valid for XSD, listed so they are not mistaken for covered ones. */
  emptyBodies: number;
}

interface Message {
  direction: 'request' | 'response';
  scenario: string;
  body: string;
  status?: number;
  /** The status the scenario answers with (500 for a fault). */
  expected?: number;
}

export async function measureWsdl(accord: Accord, file: string, seeds: readonly number[]): Promise<Measurement> {
  const m: Measurement = {
    wsdl: path.basename(file),
    requests: { valid: 0, total: 0 },
    responses: { valid: 0, total: 0 },
    failures: [],
    notes: [],
    rpcOperations: 0,
    emptyBodies: 0,
  };
  const set: SchemaSet = buildSchemaSet(file);
  m.notes.push(...set.notes);
  m.rpcOperations = set.rpcOperations;
  const messages = await generate(accord, file, seeds);

  const docs: string[] = [];
  const owners: { message: number; payload: ReturnType<typeof payloadsOf>[number] }[] = [];
  const invalid = new Set<number>();
  const unreadable = new Map<number, string>();
  messages.forEach((msg, i) => {
    if (msg.status !== undefined && msg.status !== msg.expected) {
      // The stub refused accord's own request: the round trip is broken, which corpus.test.ts reports.
      unreadable.set(i, `the stub answered ${msg.status}`);
      return;
    }
    let payloads;
    try {
      payloads = payloadsOf(msg.body);
    } catch (e) {
      unreadable.set(i, (e as Error).message);
      return;
    }
    if (payloads.length === 0 || payloads.every((p) => p.part === 'header')) m.emptyBodies++;
    for (const p of payloads) {
      docs.push(p.xml);
      owners.push({ message: i, payload: p });
    }
  });
  let verdicts;
  try {
    const r = await validateAll(set, docs);
    verdicts = r.verdicts;
    m.notes.push(...r.warnings);
  } catch (e) {
    if (!(e instanceof SchemaLoadError)) throw e;
    m.loadError = e.message;
    return m;
  }
  let choices: Set<string> | undefined;
  verdicts.forEach((v, k) => {
    if (v.valid) return;
    const { message, payload } = owners[k];
    invalid.add(message);
    const msg = messages[message];
    m.failures.push({
      direction: msg.direction,
      scenario: msg.scenario,
      element: payload.element,
      part: payload.part,
      errors: v.errors.map((e) => ({ message: e, cls: classify(e, payload.xml, (choices ??= choiceNames(set))) })),
    });
  });
  for (const [i, why] of unreadable) {
    invalid.add(i);
    m.failures.push({ direction: messages[i].direction, scenario: messages[i].scenario, element: '-', part: 'body', errors: [{ message: why, cls: 'other' }] });
  }
  messages.forEach((msg, i) => {
    const count = msg.direction === 'request' ? m.requests : m.responses;
    count.total++;
    if (!invalid.has(i)) count.valid++;
  });
  return m;
}

/**
 * Requests as the runner builds them (one per seed), sent to a stub of the imported contract; the
 * stub's answers are the responses. Fault scenarios, which answer only their examples, are measured
 * apart (faultsWithExamples) so that their examples never answer the operations' own requests.
 */
async function generate(accord: Accord, file: string, seeds: readonly number[]): Promise<Message[]> {
  const { text } = accord.importWsdl(file);
  const contract = accord.parseContract(text, `${path.basename(file)}.spec`);
  const out: Message[] = [];
  await runAgainstStub(accord, contract, seeds, out);
  const faults = faultsWithExamples(accord, contract);
  if (faults.scenarios.length > 0) await runAgainstStub(accord, faults, seeds, out);
  return out;
}

async function runAgainstStub(accord: Accord, contract: Contract, seeds: readonly number[], out: Message[]): Promise<void> {
  const stub = await accord.startStub({ contracts: contract, port: 0, log: () => undefined });
  try {
    for (const tc of accord.testCases(contract)) {
      if (tc.notRun !== undefined) continue;
      for (const seed of seeds) {
        const r = await accord.runCase(tc, { baseUrl: stub.url, seed });
        if (r.request?.body) out.push({ direction: 'request', scenario: tc.name, body: r.request.body });
        // A one-way operation answers without a body: nothing to validate.
        if (r.response?.body) out.push({ direction: 'response', scenario: tc.name, body: r.response.body, status: r.response.status, expected: tc.scenario.response.status });
      }
    }
  } finally {
    await stub.close();
  }
}

/**
 * The contract's fault scenarios, each given the Examples row a user would write: a request
 * generated from it (a seed per fault, so that two faults of one operation differ). The stub's
 * fault answers are then measured too (their detail); the requests are the operations' own.
 */
function faultsWithExamples(accord: Accord, contract: Contract): Contract {
  const scenarios = contract.scenarios.flatMap((s, i): Scenario[] => {
    if (!accord.isFaultScenario(s) || s.examples.length > 0) return [];
    const body = accord.buildRequest({ scenario: s, name: s.name }, 1000 + i).body;
    return [{ ...s, examples: [{ line: s.line, values: new Map([[REQUEST_BODY_COLUMN, body]]) }] }];
  });
  return { ...contract, scenarios };
}
