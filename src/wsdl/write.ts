import { printContract, type PrintScenario, type Step } from '../contract/print';
import { referencedNames } from '../pattern/placeholder';
import type { Pattern, XmlElementPattern } from '../pattern/types';
import type { TypeDef } from './declared-types';
import { envelope } from './envelope';
import type { OperationModel } from './model';
import { FAULT_STATUS } from './fault';
import { FAULT_TAG } from '../contract/model';
import { WSA_ACTION_TAG } from '../http/ws-addressing';

/** A message as patterns: the header entries and the body (nodes, or a pattern written in place, such as (anything)). */
export interface MessageNodes {
  headers: XmlElementPattern[];
  body: XmlElementPattern[] | Pattern;
}

export interface ScenarioDraft {
  op: OperationModel;
  name: string;
  request: MessageNodes;
  response?: MessageNodes;
  /** For a fault scenario: the fault's name (the response is its Fault envelope). */
  fault?: string;
  /** With WS-Addressing: the Action the answer carries (`@wsa-action:<uri>`). */
  replyAction?: string;
  /** What the operation's policy asks beyond the Feature's tags (`@ws-security:…`, `@https`). */
  tags?: string[];
}

export interface ContractDraft {
  feature: string;
  /** The WSDL file as the comment at the top names it (the coverage reporter reads it from the contract's folder). */
  file: string;
  targetNamespace: string;
  scenarios: ScenarioDraft[];
  types: Map<string, TypeDef>;
  /** `xmlns:p` declarations every envelope carries. */
  declarations: [string, string][];
  defaultPath: string;
  /** `@ws-addressing`, `@mtom`, `@https`, `@ws-security:…`: what the WSDL's policies ask of every message. */
  tags?: string[];
}

const ref = (name: string): Pattern => ({ kind: 'ref', name });

/** Above each fault scenario: how to make it run, since the importer cannot know which request gets the fault. */
const FAULT_COMMENT = 'a fault: answered by the stub and run as a test only for an Examples row (or stub example file) of a request that gets it';
const literal = (value: string): Pattern => ({ kind: 'literal', value });

/**
 * The contract text. What every scenario shares (envelopes, request line,
 * status, types several scenarios use) goes to the Background; each scenario
 * holds its messages, the types only it uses, and its SOAP action.
 */
export function writeContract(d: ContractDraft): string {
  const { scenarios, declarations } = d;
  const mostCommon = <T>(xs: T[]): T => {
    const counts = new Map<T, number>();
    for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0][0];
  };
  const version = mostCommon(scenarios.map((s) => s.op.soapVersion));
  const pathOf = (o: OperationModel) => o.path ?? d.defaultPath;
  const path = mostCommon(scenarios.map((s) => pathOf(s.op)));
  const allActions11 = scenarios.every((s) => s.op.soapVersion === '1.1' && s.op.action !== undefined && !s.op.action.includes(','));
  const allResponses = scenarios.every((s) => s.response);
  const typeStep = (t: TypeDef): Step => ({ kind: 'type', name: t.name, pattern: t.pattern });

  // A type only one scenario reaches is declared in that scenario; a shared one once, in the Background.
  const owner = typeOwners(
    scenarios.map((s) => rootsOf(s.request, s.response)),
    d.types,
  );
  const shared = (name: string) => owner.get(name) === SHARED || !owner.has(name);
  const bg: Step[] = [];
  for (const t of d.types.values()) if (shared(t.name)) bg.push(typeStep(t));
  const single = (m: MessageNodes): m is { headers: []; body: [XmlElementPattern] } => m.headers.length === 0 && Array.isArray(m.body) && m.body.length === 1;
  // The shared envelopes, when at least one scenario fills them in (the others declare their own).
  if (scenarios.some((s) => single(s.request) && s.op.soapVersion === version))
    bg.push({ kind: 'type', name: 'RequestEnvelope', pattern: envelope(version, declarations, [], ref('Request')) });
  if (scenarios.some((s) => s.response && single(s.response) && s.op.soapVersion === version))
    bg.push({ kind: 'type', name: 'ResponseEnvelope', pattern: envelope(version, declarations, [], ref('Response')) });
  bg.push({ kind: 'request', method: 'POST', path });
  if (allActions11) bg.push({ kind: 'header', side: 'request', name: 'SOAPAction', optional: false, pattern: ref('SoapAction') });
  bg.push({ kind: 'body', side: 'request', pattern: ref('RequestEnvelope') }, { kind: 'status', status: 200 });
  if (allResponses) bg.push({ kind: 'body', side: 'response', pattern: ref('ResponseEnvelope') });

  const printed: PrintScenario[] = scenarios.map((s, i) => {
    const o = s.op;
    const steps: Step[] = [];
    const message = (m: MessageNodes, name: 'Request' | 'Response'): Step =>
      single(m) && o.soapVersion === version
        ? { kind: 'type', name, pattern: m.body[0] }
        : { kind: 'type', name: `${name}Envelope`, pattern: envelope(o.soapVersion, declarations, m.headers, m.body) };
    steps.push(message(s.request, 'Request'));
    if (s.response) steps.push(message(s.response, 'Response'));
    for (const t of d.types.values()) if (owner.get(t.name) === i) steps.push(typeStep(t));
    steps.push(...actionSteps(o, allActions11));
    if (pathOf(o) !== path) steps.push({ kind: 'request', method: 'POST', path: pathOf(o) });
    if (s.fault !== undefined) {
      steps.push({ kind: 'status', status: FAULT_STATUS });
      if (!allResponses) steps.push({ kind: 'body', side: 'response', pattern: ref('ResponseEnvelope') });
      return { comments: [FAULT_COMMENT], tags: [FAULT_TAG, ...(s.tags ?? []), ...actionTag(s)], name: s.name, steps };
    }
    // One-way: an empty 202 Accepted, as WS-I Basic Profile, JAX-WS, CXF and .NET answer.
    if (!o.output) steps.push({ kind: 'status', status: 202 });
    else if (!allResponses) steps.push({ kind: 'body', side: 'response', pattern: ref('ResponseEnvelope') });
    const comments = o.output ? [] : ['one-way operation: 202 Accepted, no response body'];
    const tags = [...(s.tags ?? []), ...actionTag(s)];
    return { comments, ...(tags.length > 0 && { tags }), name: s.name, steps };
  });

  return printContract(
    {
      tags: d.tags,
      feature: d.feature,
      comments: [`Imported by accord from ${d.file}${d.targetNamespace ? ` (${d.targetNamespace})` : ''}.`],
      background: bg,
      scenarios: printed,
    },
    { docIndent: 0, inlineTypes: false },
  );
}

/** The answer's WS-Addressing Action, as a tag; none without one, or when it holds a space (a tag cannot). */
function actionTag(s: ScenarioDraft): string[] {
  return s.replyAction !== undefined && !/\s/.test(s.replyAction) ? [`${WSA_ACTION_TAG}${s.replyAction}`] : [];
}

/** How the request names its operation: SOAPAction (SOAP 1.1) or the Content-Type's action (SOAP 1.2). */
function actionSteps(o: OperationModel, allActions11: boolean): Step[] {
  if (o.soapVersion === '1.1') {
    if (o.action !== undefined && !o.action.includes(',')) {
      // The quoted string SOAP 1.1 (6.1.1) and WS-I BP (R1109) require, so tests send it so; a stub also accepts it bare (match-request.ts).
      const values = [`"${o.action}"`];
      const steps: Step[] = [{ kind: 'type', name: 'SoapAction', pattern: { kind: 'enum', name: 'SoapAction', base: 'string', values } }];
      if (!allActions11) steps.push({ kind: 'header', side: 'request', name: 'SOAPAction', optional: false, pattern: ref('SoapAction') });
      return steps;
    }
    if (o.action !== undefined) return [{ kind: 'header', side: 'request', name: 'SOAPAction', optional: false, pattern: literal(`"${o.action}"`) }];
    return [{ kind: 'header', side: 'request', name: 'SOAPAction', optional: true, pattern: literal('""') }];
  }
  if (o.action !== undefined)
    return [{ kind: 'header', side: 'request', name: 'Content-Type', optional: false, pattern: literal(`application/soap+xml; charset=utf-8; action="${o.action}"`) }];
  return [];
}

/** Type names a message refers to directly: `specmatic_type="T"` and `(T)` in text or attributes. */
function rootsOf(...messages: (MessageNodes | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const m of messages) {
    if (!m) continue;
    for (const n of [...m.headers, ...(Array.isArray(m.body) ? m.body : [])]) referencedNames(n, out);
  }
  return out;
}

const SHARED = -1;

/**
 * For each type, the one scenario that reaches it, or SHARED when several do.
 * Each type is expanded at most twice (once per owner, then once as shared),
 * so a chain of types every scenario reaches costs no more than the chain.
 */
function typeOwners(roots: Set<string>[], types: Map<string, TypeDef>): Map<string, number> {
  const owner = new Map<string, number>();
  const refs = new Map<string, string[]>();
  const refsOfType = (name: string): string[] => {
    let r = refs.get(name);
    if (!r) {
      const t = types.get(name);
      r = t ? [...referencedNames(t.pattern)] : [];
      refs.set(name, r);
    }
    return r;
  };
  roots.forEach((names, scenario) => {
    const todo = [...names];
    while (todo.length) {
      const name = todo.pop()!;
      if (!types.has(name)) continue;
      const current = owner.get(name);
      if (current === scenario || current === SHARED) continue;
      owner.set(name, current === undefined ? scenario : SHARED);
      todo.push(...refsOfType(name));
    }
  });
  return owner;
}
