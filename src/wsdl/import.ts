import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseContract } from '../contract/load';
import { AccordError, InternalError } from '../errors';
import { declaredPrefixes, NS } from './dom';
import { Emitter, type EmitStats, type Hole } from './emit';
import { ANYTHING, element, isComment, type Child, type Occurs } from './emit-context';
import { ONCE, OPTIONAL } from '../pattern/occurs';
import type { XmlElementPattern } from '../pattern/types';
import { ENVELOPE_PREFIX } from './envelope';
import { loadWsdl, type Unresolved } from './load';
import { mtomPolicy, usesAddressing, usesMtom } from './mime';
import { PolicyReader } from './policy';
import type { FaultModel, MessageModel, OperationModel, SoapVersion } from './model';
import { isXmlName, Prefixes, qualified } from './names';
import { readWsdl11 } from './wsdl11';
import { readWsdl20 } from './wsdl20';
import { selectOperations } from './select';
import { writeContract, type MessageNodes, type ScenarioDraft } from './write';
import { faultCodeType, faultElement } from './fault';
import { SchemaIndex } from './xsd';

export interface ImportOptions {
  /** Which SOAP version to write when an operation is offered on both (default 1.1). */
  soapVersion?: SoapVersion;
  /** Only this port (WSDL 1.1) or endpoint (WSDL 2.0). */
  port?: string;
  /** How the contract's first comment names the WSDL: its path from the contract's folder (default: its base name). */
  source?: string;
  /**
   * Every SOAP port, SOAP 1.1 and 1.2 alike (a stub of the WSDL serves them all): an operation
   * offered in both versions or at several paths is a scenario per version and path, named
   * `<operation> (SOAP 1.2)` / `<operation> at <path>` beyond the first.
   */
  everyPort?: boolean;
}

export interface ImportSummary {
  file: string;
  feature: string;
  /** Distinct operations found on SOAP ports. */
  operations: number;
  /** Fault scenarios among the scenarios (one per operation fault). */
  faults: number;
  scenarios: number;
  types: number;
  /** Nodes written as `(anything)`. */
  anything: number;
  /**
   * Declarations the WSDL uses and no loaded file holds (`element {ns}name`, `type`, `group`,
   * `base type`, `message prefix:name`), each once: the nodes they would have typed are `(anything)`. With `unresolved`,
   * what makes an import partial (`accord import wsdl --strict` refuses it).
   */
  missing: string[];
  /** One entry per node written (anything) because of what is in `missing`: the node's name and the declaration not found. */
  holes: Hole[];
  soapVersions: SoapVersion[];
  /** "SOAP 1.1 written; the same operations also have SOAP 1.2 ports" and the like. */
  choices: string[];
  defaultPath?: string;
  unresolved: Unresolved[];
  skipped: string[];
  notes: string[];
  /**
   * WS-Policy clauses the contract does not carry, one line each with file and line
   * (`orders.wsdl:40: sp:IssuedToken (…) is not supported: …`): a provider asks for them, and
   * neither the tests nor the stub do.
   */
  unsupportedPolicy: string[];
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

  const { chosen, operations, choices } = selectOperations(model, set.root.file, prefer, options.port, options.everyPort);

  // Schema index and prefixes: the author's own prefixes where they are legal and unambiguous.
  const index = new SchemaIndex(set.schemas);
  const suggested = new Map<string, string>();
  for (const d of set.wsdls) for (const [ns, p] of declaredPrefixes(d.root)) if (!suggested.has(ns)) suggested.set(ns, p);
  for (const s of set.schemas) for (const [ns, p] of declaredPrefixes(s.el)) if (!suggested.has(ns)) suggested.set(ns, p);
  const prefixes = new Prefixes(suggested, [ENVELOPE_PREFIX, 'xsi', 'xsd', 'xml', 'xmlns', 'soap', 'soap12', 'SOAP-ENV', 'SOAP-ENC', 'wsdl']);
  const stats: EmitStats = {
    anything: 0,
    notes: [...set.notes, ...model.notes],
    missing: [...(model.missing ?? [])],
    holes: (model.missing ?? []).map((m) => ({ node: 'Body', subject: m })),
  };
  if (usesMtom(set)) {
    stats.notes.push(
      'MTOM/XOP: the service may send binary (base64Binary) content as an xop:Include attachment in a multipart/related message; accord reads such a message as the envelope with the content inline, as the contract writes it',
    );
  }
  const emitter = new Emitter(index, prefixes, stats);
  emitter.encoded = chosen.some((o) => o.use === 'encoded');
  for (const s of set.schemas) emitter.registerSchema(s.el, s.targetNamespace);

  // Several interfaces with one operation name: named by interface too. Every port: by version and path beyond the first.
  const usedNames = new Map<string, number>();
  const interfaces = new Map<string, Set<string>>();
  for (const o of chosen) interfaces.set(o.name, (interfaces.get(o.name) ?? new Set()).add(o.interfaceKey));
  for (const o of chosen) usedNames.set(o.name, interfaces.get(o.name)!.size);
  const firstOf = new Map<string, OperationModel>();
  for (const o of chosen) if (!firstOf.has(`${o.interfaceKey}#${o.name}`)) firstOf.set(`${o.interfaceKey}#${o.name}`, o);
  const suffix = (o: OperationModel): string => {
    const first = firstOf.get(`${o.interfaceKey}#${o.name}`)!;
    if (first === o) return '';
    return (o.soapVersion !== first.soapVersion ? ` (SOAP ${o.soapVersion})` : '') + (o.path !== first.path ? ` at ${o.path ?? DEFAULT_PATH}` : '');
  };

  // WS-Addressing: each scenario names the Action its answer carries (the WSDL's, else the default pattern).
  const addressing = usesAddressing(set);
  // WS-Policy: what each operation's request must carry, as the tags the runner and the stub read.
  const policies = new PolicyReader(set);
  const unsupportedPolicy: string[] = [];
  const policyTags = new Map<OperationModel, string[]>();
  for (const o of chosen) {
    const p = policies.forInput(o.policySubjects ?? []);
    policyTags.set(o, p.tags);
    unsupportedPolicy.push(...p.unsupported);
    stats.notes.push(...p.notes);
  }
  const featureTags = [...(addressing ? ['@ws-addressing'] : []), ...(mtomPolicy(set) ? ['@mtom'] : [])];
  const allOps = [...policyTags.values()];
  for (const t of allOps[0] ?? []) if (!featureTags.includes(t) && allOps.every((ts) => ts.includes(t))) featureTags.push(t);
  const ownTags = (o: OperationModel) => (policyTags.get(o) ?? []).filter((t) => !featureTags.includes(t));

  const scenarios = chosen.flatMap((o): ScenarioDraft[] => {
    const request = messageNodes(o, o.input, emitter);
    const response = o.output ? messageNodes(o, o.output, emitter) : undefined;
    const name = ((usedNames.get(o.name) ?? 0) > 1 ? `${o.interfaceName} ${o.name}` : o.name) + suffix(o);
    // One scenario per fault, right after its operation's: the same request, answered with the Fault.
    const tags = ownTags(o);
    const faults = o.faults.map((f): ScenarioDraft => ({
      op: o,
      name: `${name} fault ${f.name}`,
      request,
      response: faultMessage(o, f, emitter),
      fault: f.name,
      replyAction: addressing ? f.action : undefined,
      tags,
    }));
    return [{ op: o, name, request, response, replyAction: addressing && response ? o.replyAction : undefined, tags }, ...faults];
  });
  emitter.flush();

  const defaultPath = chosen.some((o) => o.path === undefined) ? DEFAULT_PATH : undefined;
  const feature = model.name || basename(file).replace(/\.[^.]+$/, '');
  const text = writeContract({
    feature,
    file: options.source ?? basename(file),
    targetNamespace: model.targetNamespace,
    scenarios,
    types: emitter.types,
    declarations: prefixes.declarations(),
    defaultPath: DEFAULT_PATH,
    tags: featureTags,
  });

  const summary: ImportSummary = {
    file: set.root.file,
    feature,
    operations,
    faults: scenarios.filter((s) => s.fault !== undefined).length,
    scenarios: scenarios.length,
    types: emitter.types.size,
    anything: stats.anything,
    missing: stats.missing,
    holes: stats.holes,
    soapVersions: [...new Set(chosen.map((o) => o.soapVersion))],
    choices,
    defaultPath,
    unresolved: set.unresolved,
    skipped: model.skipped,
    notes: stats.notes,
    unsupportedPolicy,
    files: set.files,
    millis: performance.now() - started,
  };
  // The importer's own output must read back; if it does not, that is a bug in accord, not in the WSDL.
  try {
    parseContract(text, `${basename(file)}.spec`);
  } catch (e) {
    throw new InternalError(`accord wrote a contract from ${set.root.file} that it cannot read back: ${e instanceof AccordError ? e.describe() : String(e)}`, { cause: e });
  }
  return { text, summary };
}

/**
 * A fault's answer: the Fault envelope of the operation's SOAP version, its detail holding the fault
 * message's part typed as any message part is (a global element; an rpc `type=` part becomes an
 * element named after the part, as rpc parts are in a Body: unqualified, or in the namespace the
 * binding's soap:fault gives, as Apache Axis 1.4 sends and reads it).
 */
function faultMessage(o: OperationModel, f: FaultModel, e: Emitter): MessageNodes {
  const { body } = messageNodes(o, { body: f.parts, headers: [] }, e, f.namespace);
  const detail = Array.isArray(body) && body.length > 0 ? body : null;
  const code = faultCodeType(o.soapVersion);
  if (!e.types.has(code.name)) e.types.set(code.name, { ...code, source: `SOAP ${o.soapVersion} fault codes` });
  return { headers: [], body: [faultElement(o.soapVersion, detail)] };
}

/**
 * Header nodes and body (nodes, or `(anything)` for a WSDL 2.0 `#any`) of one message. `typedPartNs`:
 * the namespace of the elements of `type=` parts (a soap:fault's), unqualified without it.
 */
function messageNodes(o: OperationModel, m: MessageModel, e: Emitter, typedPartNs?: string): MessageNodes {
  const partNode = (p: MessageModel['body'][number], occurs: Occurs = ONCE): Child[] => {
    if (p.element) return e.globalElement(p.element, occurs);
    if (p.type) return [e.typedNode(typedPartNs && isXmlName(p.name) ? qualified(e.prefixes.for(typedPartNs), p.name) : p.name, p.type, occurs)];
    if (p.any) return [];
    return isXmlName(p.name) ? [element(p.name, { text: e.anything(), occurs })] : [];
  };
  // Nodes left out (illegal names) leave a comment inside types, and nothing at the top of a message.
  const real = (nodes: Child[]) => nodes.filter((n): n is XmlElementPattern => !isComment(n));
  // A header part is as required as the binding says (wsdl11.ts, wsdl20.ts). One required only by WS-I's rule whose element is
  // declared nowhere loaded stays optional: nothing is known of it, and sent it would be made-up text.
  const once = (p: MessageModel['headers'][number]) => p.required === true && !(p.impliedRequired && p.element && !e.index.find('element', p.element));
  const headers = real(m.headers.flatMap((p) => partNode(p, once(p) ? ONCE : OPTIONAL)));
  if (m.body.some((p) => p.any)) return { headers, body: ANYTHING };
  if (m.wrapper) {
    const w = m.wrapper;
    const children = m.body.flatMap((p) => partNode(p));
    // rpc/encoded: the wrapper may say which encoding its children use (SOAP 1.1 section 4.1.1); accepted, not required.
    const encodingStyle = {
      name: `${ENVELOPE_PREFIX}:encodingStyle`,
      local: 'encodingStyle',
      optional: true,
      pattern: { kind: 'literal' as const, value: o.soapVersion === '1.1' ? NS.soapenc : NS.soap12enc },
    };
    // rpc/encoded: the parameters are a SOAP-encoded struct, whose accessors are told apart by name, not order (SOAP 1.1 section 5.4.1):
    // Delphi and SOAP::Lite servers send the return value first, where the WSDL lists it last.
    const encoded = o.use === 'encoded';
    return {
      headers,
      body: [element(qualified(e.prefixes.for(w.ns), w.local), { attributes: encoded ? [encodingStyle] : [], children, anyOrder: encoded && children.length > 1 })],
    };
  }
  return { headers, body: real(m.body.flatMap((p) => partNode(p))) };
}
