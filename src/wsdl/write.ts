import { basename } from 'node:path';
import { renderType, type TypeDef } from './declared-types';
import { envelope } from './envelope';
import type { OperationModel } from './model';
import { renderXml, type XNode } from './xml-text';

/** A message as nodes: the header entries and the body (nodes, or a type name written in place). */
export interface MessageNodes {
  headers: XNode[];
  body: XNode[] | string;
}

export interface ScenarioDraft {
  op: OperationModel;
  name: string;
  request: MessageNodes;
  response?: MessageNodes;
}

export interface ContractDraft {
  feature: string;
  /** The WSDL file, named in a comment at the top. */
  file: string;
  targetNamespace: string;
  scenarios: ScenarioDraft[];
  types: Map<string, TypeDef>;
  /** `xmlns:p` declarations every envelope carries. */
  declarations: [string, string][];
  defaultPath: string;
}

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

  const lines: string[] = [];
  lines.push(`Feature: ${d.feature}`);
  lines.push(`  # Imported by accord from ${basename(d.file)}${d.targetNamespace ? ` (${d.targetNamespace})` : ''}.`);
  lines.push('');
  lines.push('  Background:');
  // A type only one scenario reaches is declared in that scenario; a shared one once, in the Background.
  const owner = typeOwners(scenarios.map((s) => rootsOf(s.request, s.response)), d.types);
  const shared = (name: string) => owner.get(name) === SHARED || !owner.has(name);
  const bg: string[] = [];
  for (const t of d.types.values()) if (shared(t.name)) bg.push(...renderType(t));
  const single = (m: { headers: XNode[]; body: XNode[] | string }) => m.headers.length === 0 && Array.isArray(m.body) && m.body.length === 1;
  // The shared envelopes, when at least one scenario fills them in (the others declare their own).
  if (scenarios.some((s) => single(s.request) && s.op.soapVersion === version)) bg.push('And type RequestEnvelope', '"""', renderXml(envelope(version, declarations, [], 'Request')), '"""');
  if (scenarios.some((s) => s.response && single(s.response) && s.op.soapVersion === version)) bg.push('And type ResponseEnvelope', '"""', renderXml(envelope(version, declarations, [], 'Response')), '"""');
  bg.push(`When POST ${path}`);
  if (allActions11) bg.push('And request-header SOAPAction (SoapAction)');
  bg.push('And request-body (RequestEnvelope)', 'Then status 200');
  if (allResponses) bg.push('And response-body (ResponseEnvelope)');
  bg[0] = bg[0].replace(/^And /, 'Given ');
  lines.push(...indent(bg, 4));

  scenarios.forEach((s, i) => {
    const o = s.op;
    const steps: string[] = [];
    if (single(s.request) && o.soapVersion === version) steps.push('type Request', '"""', renderXml((s.request.body as XNode[])[0]), '"""');
    else steps.push('type RequestEnvelope', '"""', renderXml(envelope(o.soapVersion, declarations, s.request.headers, s.request.body)), '"""');
    if (s.response) {
      if (single(s.response) && o.soapVersion === version) steps.push('type Response', '"""', renderXml((s.response.body as XNode[])[0]), '"""');
      else steps.push('type ResponseEnvelope', '"""', renderXml(envelope(o.soapVersion, declarations, s.response.headers, s.response.body)), '"""');
    }
    for (const t of d.types.values()) if (owner.get(t.name) === i) steps.push(...renderType(t).map((l) => l.replace(/^And /, '')));
    if (o.soapVersion === '1.1') {
      if (o.action !== undefined && !o.action.includes(',')) {
        // Quoted (as SOAP 1.1 says) or bare (as some clients send): both are accepted.
        steps.push(`enum SoapAction (string) values "${o.action}",${o.action}`);
        if (!allActions11) steps.push('request-header SOAPAction (SoapAction)');
      } else if (o.action !== undefined) steps.push(`request-header SOAPAction "${o.action}"`);
      else steps.push('request-header SOAPAction? ""');
    } else if (o.action !== undefined) {
      steps.push(`request-header Content-Type application/soap+xml; charset=utf-8; action="${o.action}"`);
    }
    if (pathOf(o) !== path) steps.push(`POST ${pathOf(o)}`);
    // One-way: an empty 202 Accepted, as WS-I Basic Profile, JAX-WS, CXF and .NET answer.
    if (!o.output) steps.push('status 202');
    else if (!allResponses) steps.push('response-body (ResponseEnvelope)');
    lines.push('');
    for (const f of o.faults) {
      lines.push(`  # fault ${f.name}${f.parts[0]?.element ? `: element ${f.parts[0].element.local}` : ''}`);
    }
    if (!o.output) lines.push('  # one-way operation: 202 Accepted, no response body');
    lines.push(`  Scenario: ${s.name}`);
    lines.push(...indent(keywords(steps), 4));
  });

  return `${lines.join('\n')}\n`;
}

/** Type names a message refers to directly: `specmatic_type="T"` and `(T)` in text or attributes. */
function rootsOf(...messages: ({ headers: XNode[]; body: XNode[] | string } | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const m of messages) {
    if (!m) continue;
    for (const n of [...m.headers, ...(Array.isArray(m.body) ? m.body : [])]) refsOf(n, out);
  }
  return out;
}

function refsOf(n: XNode, out: Set<string>): void {
  for (const [k, v] of n.attrs) {
    if (k === 'specmatic_type') out.add(v);
    else {
      const m = /^\(([A-Za-z_][\w.-]*)\)$/.exec(v);
      if (m) out.add(m[1]);
    }
  }
  const t = n.text && /^\(([A-Za-z_][\w.-]*)\)$/.exec(n.text);
  if (t) out.add(t[1]);
  for (const c of n.children) refsOf(c, out);
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
      const out = new Set<string>();
      if (t?.kind === 'xml') refsOf(t.node, out);
      r = [...out];
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

/** Gherkin keywords: the first step of a block is "Given", a request line "When", a status "Then", the rest "And". */
function keywords(steps: string[]): string[] {
  const out: string[] = [];
  let first = true;
  let inDoc = false;
  for (const s of steps) {
    if (s === '"""') {
      inDoc = !inDoc;
      out.push(s);
      continue;
    }
    if (inDoc) {
      out.push(...s.split('\n'));
      continue;
    }
    const word = s.split(' ')[0];
    const kw = word === 'POST' ? 'When' : word === 'status' ? 'Then' : first ? 'Given' : 'And';
    first = false;
    out.push(`${kw} ${s}`);
  }
  return out;
}

function indent(lines: string[], n: number): string[] {
  const pad = ' '.repeat(n);
  return lines.flatMap((l) => l.split('\n')).map((l) => (l === '' ? l : pad + l));
}

