import { apiText, isFaultScenario, type Scenario } from '../../contract/model';
import { followRefs } from '../../pattern/resolve';
import type { Pattern, Scope, XmlContent, XmlElementPattern } from '../../pattern/types';
import { SOAP11_ENVELOPE, SOAP12_ENVELOPE } from '../../xml/bookkeeping';
import { formatLocation } from '../../errors';
import { namespaceOf, withNamespaces, type NsContext, type Place, type SchemaSet } from './schema';

/*
 * The SOAP operations of a set of scenarios: each scenario read as a SOAP request and answer (its
 * envelopes, SOAP version, SOAPAction, Body and Header entries) and grouped into operations by
 * the request's Body entries. A `@fault` scenario (or one answering a Fault) adds a fault to the
 * operation of its request. Anything else is named in `dropped`, one line each.
 */

export type SoapVersion = '1.1' | '1.2';

/** Where the lines about what is not written go. */
interface Lines {
  push(line: string): void;
}

export interface Entry {
  /** `prefix:local` of the global element (the exported WSDL's prefixes). */
  element: string;
  local: string;
  required: boolean;
}

export interface Message {
  body: Entry[];
  headers: Entry[];
}

export interface Operation {
  name: string;
  version: SoapVersion;
  path: string;
  /** The SOAPAction (SOAP 1.2: the action parameter); '' for none. */
  action: string;
  input: Message;
  /** Undefined for a one-way operation (202, no body). */
  output?: Message;
  faults: { name: string; element: string }[];
  /** The scenario the operation was read from first, for dropped lines about it. */
  where: string;
  key: string;
}

interface Envelope {
  version: SoapVersion;
  message: Message;
  /** The Body's single Fault entry, when the Body is a Fault. */
  fault?: { detail: XmlElementPattern[]; ctx: NsContext };
}

export function scenarioPlace(s: Scenario): Place {
  return { where: `scenario "${s.name}" (${formatLocation({ file: s.file, line: s.line })})`, scope: s.scope };
}

/** The operations of `scenarios`, in the order their first scenarios come; the schema components they use go into `schemas`. */
export function readOperations(scenarios: readonly Scenario[], schemas: SchemaSet, out: string[]): Operation[] {
  // A fault scenario's request is read again: each line said once.
  const dropped: Lines = { push: (l) => void (out.includes(l) ? undefined : out.push(l)) };
  const ops = new Map<string, Operation>();
  const faults: Scenario[] = [];
  const names = new Set<string>();
  for (const s of scenarios) {
    const place = scenarioPlace(s);
    const why = notSoap(s);
    if (why) {
      dropped.push(`${place.where}: ${why}: not written`);
      continue;
    }
    if (isFaultScenario(s) || (s.response.status >= 400 && s.response.body !== undefined)) {
      faults.push(s);
      continue;
    }
    const request = envelope(s.request.body, s.scope, place, schemas, dropped, 'request');
    if (!request) continue;
    if (request.fault) {
      dropped.push(`${place.where}: the request is a SOAP Fault: not written`);
      continue;
    }
    let output: Message | undefined;
    if (s.response.body !== undefined) {
      const answer = envelope(s.response.body, s.scope, place, schemas, dropped, 'response');
      if (!answer) continue;
      if (answer.fault) {
        dropped.push(`${place.where}: a Fault answered with status ${s.response.status}: not written (a fault scenario is tagged @fault, status 500)`);
        continue;
      }
      if (answer.version !== request.version) {
        dropped.push(`${place.where}: the answer's SOAP version (${answer.version}) is not the request's (${request.version}): not written`);
        continue;
      }
      output = answer.message;
    } else if (s.response.status !== 202 && s.response.status !== 200 && s.response.status !== 204) {
      dropped.push(`${place.where}: status ${s.response.status} without a body: not written`);
      continue;
    } else if (s.response.status !== 202)
      dropped.push(`${place.where}: status ${s.response.status} without a body: written as a one-way operation, which is answered 202 (WS-I Basic Profile)`);
    const key = opKey(request.version, request.message);
    const known = ops.get(key);
    if (known) {
      if (JSON.stringify(known.output) !== JSON.stringify(output))
        dropped.push(`${place.where}: the same request as ${known.where} with another answer: only the first is written`);
      continue;
    }
    const first = request.message.body[0]?.local ?? s.name;
    const name = unique(ncName(first), names);
    ops.set(key, {
      name,
      version: request.version,
      path: s.request.path,
      action: actionOf(s, request.version, (l) => dropped.push(`${place.where}: ${l}`)),
      input: request.message,
      output,
      faults: [],
      where: place.where,
      key,
    });
  }
  for (const s of faults) addFault(s, ops, schemas, dropped);
  return [...ops.values()];
}

function addFault(s: Scenario, ops: Map<string, Operation>, schemas: SchemaSet, dropped: Lines): void {
  const place = scenarioPlace(s);
  const request = envelope(s.request.body, s.scope, place, schemas, dropped, 'request');
  if (!request) return;
  const op = ops.get(opKey(request.version, request.message));
  if (!op) {
    dropped.push(`${place.where}: a fault of a request no other scenario answers: not written (a WSDL fault belongs to an operation)`);
    return;
  }
  if (!op.output) {
    dropped.push(`${place.where}: a fault of a one-way operation (WSDL 1.1 allows none): not written`);
    return;
  }
  const answer = s.response.body === undefined ? undefined : envelope(s.response.body, s.scope, place, schemas, dropped, 'response');
  if (!answer?.fault) {
    dropped.push(`${place.where}: a fault scenario whose answer is not a SOAP Fault: not written`);
    return;
  }
  const detail = answer.fault.detail[0];
  if (!detail) {
    dropped.push(`${place.where}: a Fault without a detail element: not written (a WSDL fault names its detail element)`);
    return;
  }
  if (answer.fault.detail.length > 1) dropped.push(`${place.where}: a Fault detail of several elements: only <${detail.name}> is written`);
  const element = schemas.globalElement(detail, answer.fault.ctx, place);
  if (!element) return;
  const at = s.name.indexOf(' fault ');
  const wanted = ncName(at >= 0 ? s.name.slice(at + ' fault '.length) : detail.local);
  if (op.faults.some((f) => f.element === element)) return;
  op.faults.push({ name: unique(wanted, new Set(op.faults.map((f) => f.name))), element });
  if (s.response.status !== 500) dropped.push(`${place.where}: status ${s.response.status}: a WSDL fault is answered with 500`);
}

/** Why a scenario is not a SOAP exchange a WSDL can describe; undefined when it is one. */
function notSoap(s: Scenario): string | undefined {
  if (s.unsupported) return s.unsupported;
  if (s.request.method !== 'POST') return `not a SOAP scenario (${apiText(s)}: SOAP is POSTed)`;
  if (s.request.body === undefined) return `not a SOAP scenario (${apiText(s)} has no request body)`;
  if (s.request.segments.some((seg) => seg.pattern)) return `a path with parameters (${s.request.path}) cannot be a WSDL address`;
  const variable = s.request.query.filter((q) => q.pattern.kind !== 'literal');
  if (variable.length > 0) return `query parameters (${variable.map((q) => q.name).join(', ')}) cannot be in a WSDL address`;
  return undefined;
}

function opKey(version: SoapVersion, m: Message): string {
  return `${version} ${m.body.map((b) => b.element).join(' ')}`;
}

/** One node of XML content as an element: itself, or the XML type a `(Name)` names. */
function asElement(c: XmlContent, scope: Scope): XmlElementPattern | undefined {
  if (c.kind === 'xml') return c;
  if (c.kind !== 'xml-ref') return undefined;
  const t = followRefs({ kind: 'ref', name: c.name }, (n) => scope.types.get(n));
  return !t.error && t.p.kind === 'xml' ? t.p : undefined;
}

function envelope(p: Pattern | undefined, scope: Scope, place: Place, schemas: SchemaSet, dropped: Lines, side: string): Envelope | undefined {
  const t = p && followRefs(p, (n) => scope.types.get(n), { lookup: true });
  const env = t && !t.error && t.p.kind === 'xml' ? t.p : undefined;
  const ctx = env ? withNamespaces(new Map(), env) : undefined;
  const ns = env && ctx ? namespaceOf(env.prefix, ctx) : undefined;
  if (!env || env.local !== 'Envelope' || (ns !== SOAP11_ENVELOPE && ns !== SOAP12_ENVELOPE)) {
    const json = t && !t.error && t.p.kind !== 'xml' && t.p.kind !== 'scalar' && t.p.kind !== 'literal';
    dropped.push(`${place.where}: the ${side} body is ${json ? 'JSON' : 'not a SOAP envelope'}: not written (a WSDL describes SOAP messages)`);
    return undefined;
  }
  const version: SoapVersion = ns === SOAP11_ENVELOPE ? '1.1' : '1.2';
  const message: Message = { body: [], headers: [] };
  let fault: Envelope['fault'];
  for (const c of env.content) {
    const part = asElement(c, scope);
    if (!part) {
      dropped.push(`${place.where}: ${side} envelope content that is not an element: not written`);
      continue;
    }
    const here = withNamespaces(ctx!, part);
    const entries = part.content.map((x) => ({ x, el: asElement(x, scope) }));
    if (part.local === 'Body') {
      for (const { x, el } of entries) {
        if (!el) {
          dropped.push(`${place.where}: ${side} Body content ${x.kind === 'xml-text' ? 'that is a value, not an element' : `(${x.kind})`}: the scenario is not written`);
          return undefined;
        }
        const elCtx = withNamespaces(here, el);
        if (el.local === 'Fault' && namespaceOf(el.prefix, elCtx) === ns) {
          fault = { detail: faultDetail(el, elCtx, scope), ctx: elCtx };
          continue;
        }
        const element = schemas.globalElement({ ...el, occurs: { min: 1, max: 1 } }, here, place);
        if (element) message.body.push({ element, local: el.local, required: true });
        if (element && (el.occurs.min !== 1 || el.occurs.max !== 1))
          dropped.push(`${place.where}: ${side} Body entry <${el.name}> occurs ${el.occurs.min}..${el.occurs.max}: written once`);
      }
    } else if (part.local === 'Header') {
      for (const { x, el } of entries) {
        if (!el) {
          if (x.kind !== 'xml-any') dropped.push(`${place.where}: ${side} Header content (${x.kind}): not written`);
          continue;
        }
        const element = schemas.globalElement({ ...el, occurs: { min: 1, max: 1 } }, here, place);
        if (element) message.headers.push({ element, local: el.local, required: el.occurs.min > 0 && part.occurs.min > 0 });
      }
      if (part.occurs.min > 0 && !message.headers.some((h) => h.required))
        dropped.push(`${place.where}: the ${side} SOAP Header is required but holds no required entry: a WSDL cannot require it (written optional)`);
    } else dropped.push(`${place.where}: <${part.name}> in the ${side} envelope: not written`);
  }
  if (!env.content.some((c) => asElement(c, scope)?.local === 'Header'))
    dropped.push(`${place.where}: the ${side} envelope has no SOAP Header: a WSDL cannot forbid one (an import of it writes the Header optional)`);
  return { version, message, fault };
}

/** The elements of a Fault's detail (SOAP 1.1 `detail`, 1.2 `Detail`); the lax wildcard the importer adds after them is not one. */
function faultDetail(fault: XmlElementPattern, ctx: NsContext, scope: Scope): XmlElementPattern[] {
  for (const c of fault.content) {
    const el = asElement(c, scope);
    if (!el || (el.local !== 'detail' && el.local !== 'Detail')) continue;
    return el.content.map((x) => asElement(x, scope)).filter((x): x is XmlElementPattern => x !== undefined);
  }
  void ctx;
  return [];
}

/** The SOAPAction the contract sends (SOAP 1.2: the Content-Type's action parameter); '' when it names none. */
function actionOf(s: Scenario, version: SoapVersion, drop: (line: string) => void): string {
  const want = version === '1.1' ? 'soapaction' : 'content-type';
  const h = s.request.headers.find((x) => x.name.toLowerCase() === want);
  if (!h) return '';
  const values = valuesOf(h.pattern, s.scope);
  const value = values?.[0];
  if (value === undefined) return '';
  if (version === '1.1') {
    const bare = (v: string) => (v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v);
    const others = values!.slice(1).filter((v) => v !== value);
    if (others.length > 0)
      drop(
        others.every((v) => bare(v) === bare(value))
          ? `SOAPAction ${values!.join(', ')}: a WSDL names the action once, which clients send quoted; the other spelling is not in the WSDL`
          : `SOAPAction ${values!.join(', ')}: a WSDL operation has one action; only ${bare(value)} is written`,
      );
    return bare(value);
  }
  const at = value.toLowerCase().indexOf('action=');
  if (at < 0) return '';
  const rest = value.slice(at + 'action='.length);
  if (rest.startsWith('"')) {
    const end = rest.indexOf('"', 1);
    return end > 0 ? rest.slice(1, end) : '';
  }
  const end = rest.indexOf(';');
  return (end < 0 ? rest : rest.slice(0, end)).trim();
}

function valuesOf(p: Pattern, scope: Scope): string[] | undefined {
  const t = followRefs(p, (n) => scope.types.get(n), { lookup: true, optional: true });
  if (t.error) return undefined;
  if (t.p.kind === 'literal') return t.p.value === null ? undefined : [String(t.p.value)];
  if (t.p.kind === 'enum') return t.p.values;
  return undefined;
}

/** A name usable as an NCName (an operation, message or port name). */
export function ncName(raw: string): string {
  let s = '';
  for (const c of raw) s += (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_' || c === '-' || c === '.' ? c : '_';
  if (s === '' || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] === '_')) s = `_${s}`;
  return s;
}

export function unique(name: string, taken: Set<string>): string {
  let n = name;
  for (let i = 2; taken.has(n); i++) n = `${name}_${i}`;
  taken.add(n);
  return n;
}
