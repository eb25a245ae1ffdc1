import path from 'node:path';
import { SOAPUI_LIMITS } from '../limits';
import { isXmlName } from '../wsdl/names';
import { parseXmlOrUndefined } from '../xml/parse';
import { elementChildren, textOf, type XmlElement } from '../xml/tree';
import { expand, type Scopes } from './expand';
import type { Assertion, MockOperation, MockResponse, NotCarried, Place, SoapuiInterface, SoapuiProject } from './model';
import { cachedWsdl, type WsdlDocuments } from './wsdl-cache';
import { wsSecurityPlan, type WsSecurityPlan } from './ws-security';

/**
 * What importing a project writes, decided before anything is written (pure): one contract per WSDL
 * (the interfaces of one WSDL, its SOAP 1.1 and 1.2 bindings, share it), the example files of each
 * (a test step's request with the answer it asserts, a mock response with the requests it answers),
 * WS-Security settings, and what does not carry over. The edge imports each WSDL, fills in each
 * example's path from the contract, checks every example against its contract and writes.
 */
export interface ContractPlan {
  /** The contract's file name without `.spec`, unique in the import. */
  stem: string;
  documents: WsdlDocuments;
  interfaces: SoapuiInterface[];
}

export type Outcome = 'ok' | 'fault' | 'any';

export interface ExamplePlan {
  contract: string;
  /** The file name in `<stem>_examples/`. */
  file: string;
  /** What it was made from, as said in a misfit: `test step "login" (suite / case)`. */
  source: string;
  place: Place;
  operation: string;
  soapVersion: '1.1' | '1.2';
  headers: Record<string, string>;
  /** Undefined: any request of the operation (a mock response answers every request it is dispatched). */
  body?: string;
  outcome: Outcome;
  /** Statuses to try, in order (the first the contract takes is written). */
  statuses: number[];
  responseBody?: string;
  /** The mock response it answers with, when one was paired. */
  mockResponse?: string;
}

export interface ImportPlan {
  project: string;
  contracts: ContractPlan[];
  examples: ExamplePlan[];
  wsSecurity?: WsSecurityPlan;
  notCarried: NotCarried[];
  /** Test steps whose asserted values were checked against the mock response paired with them. */
  assertionsChecked: number;
  /** Values of expansions resolved from the project's properties. */
  expansionsResolved: number;
}

export function planImport(project: SoapuiProject, projectDir: string): ImportPlan {
  const notCarried = [...project.notCarried];
  const skip = (what: string, place: Place, why?: string) => notCarried.push(why === undefined ? { what, place } : { what, place, why });
  const contracts: ContractPlan[] = [];
  const byInterface = new Map<string, ContractPlan>();
  const taken = new Set<string>();
  const byKey = new Map<string, ContractPlan>();
  const resolved = { count: 0 };

  // One contract per distinct WSDL; an interface with an empty cache takes a sibling's of the same definition.
  const cached = new Map<SoapuiInterface, ReturnType<typeof cachedWsdl>>();
  for (const i of project.interfaces) cached.set(i, cachedWsdl(i));
  for (const i of project.interfaces) {
    let got = cached.get(i)!;
    if (!got.ok) {
      const sibling = project.interfaces.find((o) => o !== i && o.definition === i.definition && cached.get(o)!.ok);
      if (sibling) got = cached.get(sibling)!;
    }
    if (!got.ok) {
      const def = i.definition;
      const hint = ['http:', 'https:'].some((scheme) => def.toLowerCase().startsWith(scheme))
        ? `its WSDL is not cached in the project; import it with \`accord import wsdl ${def}\``
        : `its WSDL is not cached in the project (definition ${def || 'empty'}${def ? `, from ${path.join(projectDir, def)}` : ''}); import it with \`accord import wsdl\``;
      skip(`interface "${i.name}"`, i.place, hint);
      continue;
    }
    let plan = byKey.get(got.docs.key);
    if (!plan) {
      const stem = unique(safeName(i.name) || 'service', taken);
      plan = { stem, documents: got.docs, interfaces: [] };
      byKey.set(got.docs.key, plan);
      contracts.push(plan);
    }
    plan.interfaces.push(i);
    byInterface.set(i.name, plan);
  }
  const ifaceByName = new Map(project.interfaces.map((i) => [i.name, i]));

  const examples: ExamplePlan[] = [];
  const fileNames = new Set<string>();
  const usedMock = new Set<MockResponse>();
  const mockOps = project.mocks.flatMap((m) => m.operations.map((o) => ({ mock: m, op: o })));
  let assertionsChecked = 0;
  let n = 0;

  for (const suite of project.suites) {
    for (const tc of suite.cases) {
      // `${Step#name}` names a properties step of the case, wherever it stands.
      const steps = new Map<string, ReadonlyMap<string, string>>();
      for (const step of tc.steps) if (step.properties) steps.set(step.name, step.properties);
      for (const step of tc.steps) {
        const call = step.request;
        if (!call) continue;
        const source = `test step "${step.name}" (${step.place.path})`;
        if (step.disabled) {
          skip(`disabled test step "${step.name}"`, step.place, 'SoapUI does not run it');
          continue;
        }
        const iface = ifaceByName.get(call.interface);
        const plan = byInterface.get(call.interface);
        if (!iface || !plan) {
          skip(`test step "${step.name}"`, step.place, `its interface "${call.interface}" is not imported`);
          continue;
        }
        const scopes: Scopes = { project: project.properties, suite: suite.properties, testCase: tc.properties, steps };
        const body = expand(call.body, scopes);
        if (body.unresolved.length > 0) {
          skip(
            `request of test step "${step.name}"`,
            step.place,
            `it uses ${listed(body.unresolved)}, which the project does not define (a run of SoapUI would fill ${body.unresolved.length === 1 ? 'it' : 'them'})`,
          );
          continue;
        }
        resolved.count += countExpansions(call.body);
        const headers = requestHeaders(iface, call.operation, call.headers, scopes);
        const expected = expectations(call.assertions);
        const mock = mockOps.find((m) => m.op.interface === call.interface && m.op.operation === call.operation);
        const paired = mock ? pairResponse(mock.op, expected, { project: project.properties, mock: mock.mock.properties }) : undefined;
        if (paired) usedMock.add(paired.response);
        if (expected.values.length > 0) {
          if (paired) {
            const wrong = paired.failed;
            if (wrong.length > 0)
              skip(`asserted ${listed(wrong)} of test step "${step.name}"`, step.place, `not held by mock response "${paired.response.name}", the one it is paired with`);
            else assertionsChecked++;
          } else
            skip(
              `asserted ${listed(expected.values.map((a) => `${a.type} "${a.name}"`))} of test step "${step.name}"`,
              step.place,
              mock
                ? `no response of mock operation "${mock.op.name}" holds them${expected.outcome === 'fault' ? ' and is a fault' : ''}, so there is no answer to hold them against`
                : 'no mock response of the project answers this operation, so there is no answer to hold them against',
            );
        }
        for (const a of expected.other) skip(`assertion ${a.type} "${a.name}" of test step "${step.name}"`, step.place, 'this kind of assertion is not carried over');
        if (examples.length >= SOAPUI_LIMITS.examples) {
          skip(`test step "${step.name}"`, step.place, `more than ${SOAPUI_LIMITS.examples} examples in one import`);
          continue;
        }
        n++;
        const outcome = paired?.outcome ?? expected.outcome;
        examples.push({
          contract: plan.stem,
          file: unique(`${String(n).padStart(4, '0')}-${safeName(`${tc.name}-${step.name}`)}`, fileNames) + '.json',
          source,
          place: step.place,
          operation: call.operation,
          soapVersion: iface.soapVersion,
          headers,
          body: body.text,
          outcome,
          statuses: expected.status !== undefined ? [expected.status] : statusesFor(outcome),
          responseBody: paired?.body,
          mockResponse: paired?.response.name,
        });
      }
    }
  }

  for (const { mock, op } of mockOps) {
    const iface = ifaceByName.get(op.interface);
    const plan = byInterface.get(op.interface);
    if (!iface || !plan) {
      skip(`mock operation "${op.name}"`, op.place, `its interface "${op.interface}" is not imported`);
      continue;
    }
    // The default response answers, else the first; one whose content needs a run of SoapUI (`${=…}`, a value a script set) cannot.
    const mockScopes = { project: project.properties, mock: mock.properties };
    const answering = [...op.responses.filter((r) => r.name === op.defaultResponse), ...op.responses].find((r) => expand(r.content, mockScopes).unresolved.length === 0);
    for (const r of op.responses) {
      const content = expand(r.content, mockScopes);
      if (content.unresolved.length > 0) {
        if (!usedMock.has(r))
          skip(`mock response "${r.name}"`, r.place, `it uses ${listed(content.unresolved)}, which the project does not define (a run of SoapUI would fill it)`);
        continue;
      }
      if (r !== answering) {
        if (!usedMock.has(r)) skip(`mock response "${r.name}"`, r.place, unreachable(op, answering));
        continue;
      }
      const fault = isFault(content.text);
      examples.push({
        contract: plan.stem,
        file: unique(`mock-${safeName(`${op.name}-${r.name}`)}`, fileNames) + '.json',
        source: `mock response "${r.name}" (${r.place.path})`,
        place: r.place,
        operation: op.operation,
        soapVersion: iface.soapVersion,
        headers: requestHeaders(iface, op.operation, [], { project: project.properties }),
        outcome: fault ? 'fault' : 'ok',
        statuses: [...new Set([r.status ?? 200, ...(fault ? [500, 400] : [200, 202])])],
        responseBody: content.text,
        mockResponse: r.name,
      });
    }
    if (op.responses.length === 0) skip(`mock operation "${op.name}"`, op.place, 'it has no response');
  }
  for (const m of project.mocks) {
    const paths = new Set(contracts.flatMap((c) => c.interfaces.map((i) => i.name)));
    if (m.operations.some((o) => paths.has(o.interface)))
      notCarried.push({
        what: `mock service path ${m.path}${m.port ? ` (port ${m.port})` : ''} of "${m.name}"`,
        place: m.place,
        why: "the stub serves each operation at its WSDL's address path",
      });
  }

  const wsSecurity = wsSecurityPlan(project, contracts, skip);
  return { project: project.name, contracts, examples, wsSecurity, notCarried, assertionsChecked, expansionsResolved: resolved.count };
}

interface Expectations {
  outcome: Outcome;
  status?: number;
  /** Assertions of values (XPath Match, Contains, NotContains, XQuery Match). */
  values: Assertion[];
  /** Assertions that carry nothing (timing, WS-A, scripts are listed elsewhere). */
  other: Assertion[];
}

const SHAPE_ASSERTIONS = new Set(['SOAP Response', 'Schema Compliance', 'SOAP Fault Assertion', 'Not SOAP Fault Assertion', 'Valid HTTP Status Codes', 'GroovyScriptAssertion']);
const VALUE_ASSERTIONS = new Set(['XPath Match', 'Simple Contains', 'Simple NotContains', 'XQuery Match']);

function expectations(assertions: Assertion[]): Expectations {
  const live = assertions.filter((a) => !a.disabled);
  let outcome: Outcome = 'any';
  if (live.some((a) => a.type === 'SOAP Fault Assertion')) outcome = 'fault';
  else if (live.some((a) => a.type === 'Not SOAP Fault Assertion')) outcome = 'ok';
  let status: number | undefined;
  const codes = live.find((a) => a.type === 'Valid HTTP Status Codes')?.config.codes;
  const code = codes === undefined ? NaN : Number(codes.trim());
  if (Number.isInteger(code) && code >= 100 && code <= 599) status = code;
  return {
    outcome,
    status,
    values: live.filter((a) => VALUE_ASSERTIONS.has(a.type)),
    other: live.filter((a) => !SHAPE_ASSERTIONS.has(a.type) && !VALUE_ASSERTIONS.has(a.type)),
  };
}

function statusesFor(outcome: Outcome): number[] {
  return outcome === 'fault' ? [500, 400] : outcome === 'ok' ? [200, 202] : [200, 202, 500, 400];
}

/**
 * The mock response a test step's request would get, chosen by what the step asserts: a fault for a
 * SOAP Fault assertion, else not one; among those the one holding every asserted value, the default
 * response first. `failed`: the asserted values the chosen one does not hold.
 */
function pairResponse(op: MockOperation, e: Expectations, scopes: Scopes): { response: MockResponse; body: string; outcome: Outcome; failed: string[] } | undefined {
  const candidates = op.responses
    .map((r) => ({ r, text: expand(r.content, scopes) }))
    .filter((c) => c.text.unresolved.length === 0)
    // A step that asserts no fault is not paired with one: which request gets a fault is the mock's script's to say.
    .filter((c) => (e.outcome === 'fault' ? isFault(c.text.text) : !isFault(c.text.text)));
  if (candidates.length === 0) return undefined;
  candidates.sort((a, b) => Number(b.r.name === op.defaultResponse) - Number(a.r.name === op.defaultResponse));
  const scored = candidates.map((c) => ({ ...c, failed: e.values.filter((a) => !holds(a, c.text.text)).map((a) => `${a.type} "${a.name}"`) }));
  const best = scored.find((c) => c.failed.length === 0) ?? scored[0];
  if (e.outcome === 'any' && best.failed.length > 0 && e.values.length > 0) return undefined;
  return { response: best.r, body: best.text.text, outcome: isFault(best.text.text) ? 'fault' : 'ok', failed: best.failed };
}

/** Whether a response holds what an assertion of values asks: a token (Contains), no token (NotContains), an element's value (XPath Match's last step). */
export function holds(a: Assertion, body: string): boolean {
  if (a.type === 'Simple Contains' || a.type === 'Simple NotContains') {
    const token = a.config.token ?? '';
    if (a.config.useRegEx === 'true') return false;
    const ignore = a.config.ignoreCase === 'true';
    const found = (ignore ? body.toLowerCase() : body).includes(ignore ? token.toLowerCase() : token);
    return a.type === 'Simple Contains' ? found : !found;
  }
  if (a.type === 'XPath Match') {
    const step = lastStep(a.config.path ?? '');
    if (step === undefined) return false;
    const tree = parseXmlOrUndefined(body);
    if (!tree) return false;
    const want = (a.config.content ?? '').trim();
    const wildcards = a.config.allowWildcards === 'true' && want.includes('*');
    return elementsNamed(tree, step).some((el) => {
      const got = textOf(el).trim();
      return wildcards ? matchesWildcards(got, want) : got === want;
    });
  }
  return false;
}

/** The local name an XPath ends at (`//ns:a/ns:b` → `b`, `…/ns:b/text()` → `b`); undefined for anything else (predicates, functions). */
function lastStep(xpath: string): string | undefined {
  const lines = xpath.split('\n').filter((l) => !l.trim().startsWith('declare namespace') && l.trim() !== '');
  let p = lines.join('').trim();
  if (p.endsWith('/text()')) p = p.slice(0, -'/text()'.length);
  if (p.includes('[') || p.includes('(') || p === '') return undefined;
  const last = p.split('/').pop() ?? '';
  const local = last.includes(':') ? last.slice(last.indexOf(':') + 1) : last;
  return isXmlName(local) ? local : undefined;
}

function elementsNamed(root: XmlElement, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el.local === local) out.push(el);
    stack.push(...elementChildren(el));
  }
  return out;
}

/** SoapUI's `*` wildcard (any run of characters), compared without a regular expression. */
function matchesWildcards(got: string, want: string): boolean {
  const pieces = want.split('*');
  if (!got.startsWith(pieces[0])) return false;
  let at = pieces[0].length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const j = got.indexOf(pieces[i], at);
    if (j < 0) return false;
    at = j + pieces[i].length;
  }
  const last = pieces[pieces.length - 1];
  return pieces.length === 1 ? got === want : got.length - last.length >= at && got.endsWith(last);
}

export function isFault(body: string): boolean {
  const tree = parseXmlOrUndefined(body);
  if (!tree) return false;
  const bodyEl = elementChildren(tree).find((c) => c.local === 'Body');
  return bodyEl !== undefined && elementChildren(bodyEl).some((c) => c.local === 'Fault');
}

function requestHeaders(iface: SoapuiInterface, operation: string, given: [string, string][], scopes: Scopes): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of given) {
    const e = expand(v, scopes);
    if (e.unresolved.length === 0 && k.trim() !== '') out[k.toLowerCase()] = e.text;
  }
  const action = iface.operations.find((o) => o.name === operation)?.action;
  if (iface.soapVersion === '1.1' && action !== undefined) out.soapaction = `"${action}"`;
  return out;
}

function unreachable(op: MockOperation, answering: MockResponse | undefined): string {
  const to = answering ? `the stub answers "${answering.name}"` : 'nothing answers';
  const how =
    op.dispatchStyle === 'SCRIPT'
      ? 'SoapUI picks it with a Groovy dispatch script, which is not run'
      : op.dispatchStyle === 'QUERY_MATCH'
        ? `SoapUI picks it by a query match (${op.queries
            .filter((q) => q.response)
            .map((q) => `"${q.name}"`)
            .join(', ')}), which is not carried over`
        : op.dispatchStyle === 'XPATH'
          ? 'SoapUI picks it by an XPath of the request, which is not carried over'
          : `SoapUI answers it in turn (${op.dispatchStyle}); a stub answers one`;
  return `${how} and no test step's request is paired with it; ${to} for every request of "${op.operation}"`;
}

function countExpansions(text: string): number {
  let n = 0;
  for (let i = text.indexOf('${'); i >= 0; i = text.indexOf('${', i + 2)) n++;
  return n;
}

function listed(xs: string[]): string {
  const shown = xs.slice(0, 5).join(', ');
  return xs.length > 5 ? `${shown} and ${xs.length - 5} more` : shown;
}

/** A file name stem from free text: letters, digits, `.`, `_` and `-` only, at most 60 characters. */
export function safeName(s: string): string {
  let out = '';
  for (const ch of s.normalize('NFKD')) {
    if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch === '.' || ch === '_' || ch === '-') out += ch;
    else if (ch === ' ' || ch === '/' || ch === '\\' || ch === ':') out += '-';
  }
  while (out.includes('--')) out = out.split('--').join('-');
  while (out.startsWith('.') || out.startsWith('-')) out = out.slice(1);
  return out.slice(0, 60);
}

function unique(stem: string, taken: Set<string>): string {
  let name = stem || 'x';
  for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${stem}-${i}`;
  taken.add(name.toLowerCase());
  return name;
}
