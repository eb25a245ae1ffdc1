import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseContract } from '../contract/load';
import { AccordError } from '../errors';
import { declaredPrefixes, NS } from './dom';
import { Emitter, renderType, type EmitStats, type TypeDef } from './emit';
import { envelope, ENVELOPE_PREFIX } from './envelope';
import { loadWsdl, type Unresolved } from './load';
import type { MessageModel, OperationModel, SoapVersion } from './model';
import { isXmlName, Prefixes, qualified } from './names';
import { readWsdl11 } from './wsdl11';
import { readWsdl20 } from './wsdl20';
import { COMMENT, renderXml, xnode, type XNode } from './xml-text';
import { SchemaIndex } from './xsd';


export interface ImportOptions {
  /** Which SOAP version to write when an operation is offered on both (default 1.1). */
  soapVersion?: SoapVersion;
  /** Only this port (WSDL 1.1) or endpoint (WSDL 2.0). */
  port?: string;
}

export interface ImportSummary {
  file: string;
  feature: string;
  /** Distinct operations found on SOAP ports. */
  operations: number;
  scenarios: number;
  types: number;
  /** Nodes written as `(anything)`. */
  anything: number;
  soapVersions: SoapVersion[];
  /** "SOAP 1.1 written; the same operations also have SOAP 1.2 ports" and the like. */
  choices: string[];
  defaultPath?: string;
  unresolved: Unresolved[];
  skipped: string[];
  notes: string[];
  files: string[];
  millis: number;
}

export interface ImportResult {
  text: string;
  summary: ImportSummary;
}

export const DEFAULT_PATH = '/ws';

/** WSDL file to contract text, and what was done to get it. Throws AccordError for unusable input. */
export function importWsdl(file: string, options: ImportOptions = {}): ImportResult {
  const started = performance.now();
  const prefer = options.soapVersion ?? '1.1';
  const set = loadWsdl(file);
  const model = set.root.kind === 'wsdl11' ? readWsdl11(set) : readWsdl20(set);

  let ops = model.operations;
  if (options.port !== undefined) {
    ops = ops.filter((o) => o.port === options.port);
    if (ops.length === 0) {
      const ports = [...new Set(model.operations.map((o) => o.port).filter(Boolean))];
      throw new AccordError('ACCORD_ERR_USAGE', `no SOAP port named "${options.port}"; the SOAP ports are: ${ports.join(', ') || '(none)'}`, { file: set.root.file });
    }
  }
  if (ops.length === 0) {
    throw new AccordError('ACCORD_ERR_WSDL', `no SOAP operation to import${model.skipped.length ? `: ${model.skipped.join('; ')}` : ''}`, { file: set.root.file });
  }

  // One operation per interface operation: the preferred SOAP version's port, else the first port offering it.
  const groups = new Map<string, OperationModel[]>();
  for (const o of ops) {
    const k = `${o.interfaceKey}#${o.name}`;
    const g = groups.get(k) ?? [];
    g.push(o);
    groups.set(k, g);
  }
  const choices: string[] = [];
  const chosen: OperationModel[] = [];
  let bothCount = 0;
  for (const g of groups.values()) {
    const pick = g.find((o) => o.soapVersion === prefer) ?? g[0];
    if (new Set(g.map((o) => o.soapVersion)).size > 1) bothCount++;
    chosen.push(pick);
  }
  if (bothCount > 0) {
    const other = prefer === '1.1' ? '1.2' : '1.1';
    choices.push(`${bothCount} operation${bothCount > 1 ? 's are' : ' is'} offered over SOAP 1.1 and 1.2: SOAP ${prefer} written (use --soap-version ${other} for the other)`);
  }
  const portsUsed = new Set(chosen.map((o) => o.port).filter(Boolean));
  const portsAll = new Set(ops.map((o) => o.port).filter(Boolean));
  if (portsAll.size > portsUsed.size) choices.push(`ports written: ${[...portsUsed].join(', ')}; ports offering the same operations left out: ${[...portsAll].filter((p) => !portsUsed.has(p)).join(', ')}`);

  // Schema index and prefixes: the author's own prefixes where they are legal and unambiguous.
  const index = new SchemaIndex(set.schemas);
  const suggested = new Map<string, string>();
  for (const d of set.wsdls) for (const [ns, p] of declaredPrefixes(d.root)) if (!suggested.has(ns)) suggested.set(ns, p);
  for (const s of set.schemas) for (const [ns, p] of declaredPrefixes(s.el)) if (!suggested.has(ns)) suggested.set(ns, p);
  const prefixes = new Prefixes(suggested, [ENVELOPE_PREFIX, 'xsi', 'xsd', 'xml', 'xmlns', 'soap', 'soap12', 'SOAP-ENV', 'SOAP-ENC', 'wsdl']);
  const stats: EmitStats = { anything: 0, notes: [] };
  const emitter = new Emitter(index, prefixes, stats);
  for (const s of set.schemas) emitter.registerSchema(s.el, s.targetNamespace);

  // An rpc operation is sent as an element named after it: a name XML does not allow cannot be.
  for (const o of [...chosen]) {
    if (o.style === 'rpc' && !isXmlName(o.name)) {
      chosen.splice(chosen.indexOf(o), 1);
      model.skipped.push(`operation "${o.name}": rpc style needs it as an element name, and it is not a legal XML name`);
    }
  }
  if (chosen.length === 0) throw new AccordError('ACCORD_ERR_WSDL', `no SOAP operation to import: ${model.skipped.join('; ')}`, { file: set.root.file });
  const usedNames = new Map<string, number>();
  for (const o of chosen) usedNames.set(o.name, (usedNames.get(o.name) ?? 0) + 1);

  const scenarios = chosen.map((o) => {
    const request = messageNodes(o, o.input, emitter);
    const response = o.output ? messageNodes(o, o.output, emitter) : undefined;
    const name = (usedNames.get(o.name) ?? 0) > 1 ? `${o.interfaceName} ${o.name}` : o.name;
    return { op: o, name, request, response };
  });
  emitter.flush();

  // What every scenario shares goes to the Background.
  const declarations = prefixes.declarations();
  const mostCommon = <T>(xs: T[]): T => {
    const counts = new Map<T, number>();
    for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0][0];
  };
  const version = mostCommon(scenarios.map((s) => s.op.soapVersion));
  const pathOf = (o: OperationModel) => o.path ?? DEFAULT_PATH;
  const path = mostCommon(scenarios.map((s) => pathOf(s.op)));
  const defaultPath = chosen.some((o) => o.path === undefined) ? DEFAULT_PATH : undefined;
  const allActions11 = scenarios.every((s) => s.op.soapVersion === '1.1' && s.op.action !== undefined && !s.op.action.includes(','));
  const allResponses = scenarios.every((s) => s.response);

  const lines: string[] = [];
  const feature = model.name || basename(file).replace(/\.[^.]+$/, '');
  lines.push(`Feature: ${feature}`);
  lines.push(`  # Imported by accord from ${basename(file)}${model.targetNamespace ? ` (${model.targetNamespace})` : ''}.`);
  lines.push('');
  lines.push('  Background:');
  // A type only one scenario reaches is declared in that scenario; a shared one once, in the Background.
  const reach = scenarios.map((s) => reachable(rootsOf(s.request, s.response), emitter.types));
  const users = new Map<string, number>();
  for (const r of reach) for (const n of r) users.set(n, (users.get(n) ?? 0) + 1);
  const shared = (name: string) => (users.get(name) ?? 0) !== 1;
  const bg: string[] = [];
  for (const t of emitter.types.values()) if (shared(t.name)) bg.push(...renderType(t));
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
    for (const t of emitter.types.values()) if (!shared(t.name) && reach[i].has(t.name)) steps.push(...renderType(t).map((l) => l.replace(/^And /, '')));
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
    if (o.output && !allResponses) steps.push('response-body (ResponseEnvelope)');
    lines.push('');
    for (const f of o.faults) {
      lines.push(`  # fault ${f.name}${f.parts[0]?.element ? `: element ${f.parts[0].element.local}` : ''}`);
    }
    if (!o.output) lines.push('  # one-way operation: no response body');
    lines.push(`  Scenario: ${s.name}`);
    lines.push(...indent(keywords(steps), 4));
  });

  const summary: ImportSummary = {
    file: set.root.file,
    feature,
    operations: groups.size,
    scenarios: scenarios.length,
    types: emitter.types.size,
    anything: stats.anything,
    soapVersions: [...new Set(chosen.map((o) => o.soapVersion))],
    choices,
    defaultPath,
    unresolved: set.unresolved,
    skipped: model.skipped,
    notes: stats.notes,
    files: set.files,
    millis: performance.now() - started,
  };
  const text = `${lines.join('\n')}\n`;
  // The importer's own output must read back; if it does not, that is a bug in accord, not in the WSDL.
  try {
    parseContract(text, `${basename(file)}.spec`);
  } catch (e) {
    throw new Error(`accord wrote a contract from ${set.root.file} that it cannot read back (a bug, please report it): ${e instanceof AccordError ? e.describe() : String(e)}`);
  }
  return { text, summary };
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

function reachable(roots: Set<string>, types: Map<string, TypeDef>): Set<string> {
  const seen = new Set<string>();
  const todo = [...roots];
  while (todo.length) {
    const name = todo.pop()!;
    const t = types.get(name);
    if (!t || seen.has(name)) continue;
    seen.add(name);
    if (t.kind === 'xml') {
      const next = new Set<string>();
      refsOf(t.node, next);
      todo.push(...next);
    }
  }
  return seen;
}

/** Header nodes and body (nodes, or `(anything)` for a WSDL 2.0 `#any`) of one message. */
function messageNodes(o: OperationModel, m: MessageModel, e: Emitter): { headers: XNode[]; body: XNode[] | string } {
  const partNode = (p: MessageModel['body'][number], rpcChild: boolean): XNode[] => {
    if (p.element) return e.globalElement(p.element);
    if (p.type) return [e.typedNode(p.name, p.type, p.at)];
    if (p.any) return [];
    return isXmlName(p.name) ? [xnode(p.name, [], [], e.anything())] : [];
  };
  // Nodes left out (illegal names) leave a comment inside types, and nothing at the top of a message.
  const real = (nodes: XNode[]) => nodes.filter((n) => n.name !== COMMENT);
  const headers = real(m.headers.flatMap((p) => partNode(p, false)));
  if (m.body.some((p) => p.any)) return { headers, body: 'anything' };
  if (m.wrapper) {
    const w = m.wrapper;
    const children = m.body.flatMap((p) => partNode(p, true));
    // rpc/encoded: the wrapper may say which encoding its children use (SOAP 1.1 section 4.1.1); accepted, not required.
    const attrs: [string, string][] = o.use === 'encoded' ? [[`${ENVELOPE_PREFIX}:encodingStyle.opt`, o.soapVersion === '1.1' ? NS.soapenc : NS.soap12enc]] : [];
    return { headers, body: [xnode(qualified(e.prefixes.for(w.ns), w.local), attrs, children)] };
  }
  return { headers, body: real(m.body.flatMap((p) => partNode(p, false))) };
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

export { NS };
