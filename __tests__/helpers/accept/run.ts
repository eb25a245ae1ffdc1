import path from 'node:path';
import type { Element } from '@xmldom/xmldom';
import { parseContract, testCases } from '../../../src/contract/load';
import type { TestCase } from '../../../src/contract/model';
import { ParsedBody } from '../../../src/http/body';
import { createDispatcher } from '../../../src/http/client';
import { matchRequest, splitPath } from '../../../src/http/match-request';
import { matchResponse } from '../../../src/http/match-response';
import type { HttpRequest, HttpResponse } from '../../../src/http/message';
import { formatMismatches } from '../../../src/pattern/match/mismatch';
import { runCase } from '../../../src/runner/run-case';
import { startStub } from '../../../src/stub';
import { importWsdl } from '../../../src/wsdl';
import { children, parseXml, XS } from '../xsd/dom';
import { buildSchemaSet, type SchemaSet } from '../xsd/schema-set';
import { payloadsOf, SchemaLoadError, validateAll } from '../xsd/validate';
import { bare, relaidOut, variantsOf, WSA, type DeclaredTypes, type Variant } from './variants';
import { createRandom } from '../../../src/pattern/random';

/**
 * Issue 13's bar "every recorded real response is accepted by the contract
 * imported from its WSDL", as a property: accord's own messages for a WSDL
 * (the requests its tests send, the answers its stub gives), varied the way
 * real toolkits write the same data; xmllint (libxml2) against the WSDL's own
 * schemas decides which variants are valid; every valid one must be accepted,
 * responses by the runner's matching, requests by the stub's.
 */
export interface Rejection {
  side: 'request' | 'response';
  scenario: string;
  what: string;
  why: string;
}

export interface Acceptance {
  name: string;
  /** Originals (accord's own messages) xmllint found valid: only those are varied. */
  originals: { valid: number; total: number };
  variants: { generated: number; valid: number; accepted: number };
  byKind: Map<string, { valid: number; accepted: number }>;
  rejections: Rejection[];
  /** Valid variants dropped because xmllint does not check the place they change (see Variant.canary). */
  unjudged: number;
  ms: number;
  loadError?: string;
}

export interface Limits {
  /** Messages varied per WSDL (drawn at random when there are more). */
  messages: number;
  /** Site variations per message. */
  perMessage: number;
  /** Valid site variations laid out again as another toolkit would, per message. */
  relaidOut: number;
  seed: number;
}

interface Message {
  side: 'request' | 'response';
  tc: TestCase;
  request: HttpRequest;
  response: HttpResponse;
  body: string;
}

const MAX_VARIED_CHARS = 32_000;

async function messagesOf(file: string): Promise<Message[]> {
  const { text } = importWsdl(file);
  const contract = parseContract(text, `${path.basename(file)}.spec`);
  // A WSDL whose policy asks for HTTPS (@https) is served and run over TLS, a Timestamp it asks for written (as in corpus.test.ts).
  const https = contract.scenarios.some((s) => s.tags.includes('@https'));
  const stub = await startStub({ contracts: contract, port: 0, log: () => undefined, ...(https && { tls: true as const }) });
  const dispatcher = https ? createDispatcher({ ca: stub.certificate }) : undefined;
  const ws = https ? { addressing: false, mtom: false, wsSecurity: { timestampTtlSeconds: 300, rules: { use: [], contracts: new Map() } } } : undefined;
  const out: Message[] = [];
  try {
    for (const tc of testCases(contract)) {
      const r = await runCase(tc, { baseUrl: stub.url, seed: 0, dispatcher, ws });
      if (!r.request || !r.response || !r.passed) continue;
      if (r.request.body) out.push({ side: 'request', tc, request: r.request, response: r.response, body: r.request.body });
      if (r.response.body) out.push({ side: 'response', tc, request: r.request, response: r.response, body: r.response.body });
    }
  } finally {
    await stub.close();
  }
  return out;
}

/** `name` → its declared types, from every schema file of the set (for `xsi:type` naming the declared type). */
function declaredTypes(set: SchemaSet): DeclaredTypes {
  const out = new Map<string, { ns: string; local: string }[]>();
  const walk = (el: Element, tns: string, scope: Map<string, string>) => {
    const mine = new Map(scope);
    for (let i = 0; i < el.attributes.length; i++) {
      const a = el.attributes[i];
      if (a.name === 'xmlns') mine.set('', a.value);
      else if (a.name.startsWith('xmlns:')) mine.set(a.name.slice(6), a.value);
    }
    if (el.namespaceURI === XS && el.localName === 'element' && el.getAttribute('name') && el.getAttribute('type')) {
      const [p, l] = el.getAttribute('type')!.includes(':') ? el.getAttribute('type')!.split(':') : ['', el.getAttribute('type')!];
      const ns = mine.get(p);
      if (ns !== undefined) {
        const list = out.get(el.getAttribute('name')!) ?? [];
        if (!list.some((t) => t.ns === ns && t.local === l)) list.push({ ns, local: l });
        out.set(el.getAttribute('name')!, list);
      }
    }
    for (const c of children(el)) walk(c, tns, mine);
  };
  for (const f of set.files) {
    try {
      const root = parseXml(f.contents, f.fileName).documentElement!;
      walk(root, root.getAttribute('targetNamespace') ?? '', new Map());
    } catch {
      // A file that is not XML is the schema set's business (it reports it); it names no types.
    }
  }
  return out;
}

/** The payload documents xmllint judges for a message; WS-Addressing blocks a variant added are SOAP's, not the WSDL's. */
function docsOf(text: string): string[] | undefined {
  try {
    return payloadsOf(bare(text))
      .filter((p) => !p.element.startsWith(`{${WSA}}`))
      .map((p) => p.xml);
  } catch {
    return undefined;
  }
}

/** Which texts are valid: each is valid when every payload of it is. */
async function validity(set: SchemaSet, texts: readonly string[]): Promise<boolean[]> {
  const docs: string[] = [];
  const owner: number[] = [];
  const ok = texts.map(() => true);
  texts.forEach((t, i) => {
    const d = docsOf(t);
    if (!d) ok[i] = false;
    else
      for (const x of d) {
        docs.push(x);
        owner.push(i);
      }
  });
  // Variants are small: one run for them all (each run compiles the schemas again).
  const { verdicts } = await validateAll(set, docs, 5000);
  verdicts.forEach((v, k) => {
    if (!v.valid) ok[owner[k]] = false;
  });
  return ok;
}

function accepts(m: Message, text: string): string[] {
  if (m.side === 'response') return formatMismatches(matchResponse(m.tc.scenario, { ...m.response, body: text }));
  return formatMismatches(matchRequest(m.tc.scenario, m.request, new ParsedBody(text), splitPath(m.request.path)).mismatches);
}

export async function measureAcceptance(name: string, file: string, limits: Limits): Promise<Acceptance> {
  const a: Acceptance = { name, originals: { valid: 0, total: 0 }, variants: { generated: 0, valid: 0, accepted: 0 }, byKind: new Map(), rejections: [], unjudged: 0, ms: 0 };
  const started = Date.now();
  const rng = createRandom(limits.seed);
  let set: SchemaSet;
  let all: Message[];
  try {
    set = buildSchemaSet(file);
    all = await messagesOf(file);
  } catch (e) {
    a.loadError = (e as Error).message;
    return a;
  }
  const types = declaredTypes(set);
  try {
    // Only accord's valid messages are varied, but which are valid is known only after xmllint's run, and each run compiles the
    // schemas again (seconds for a large set): messages are drawn first, everything goes into one run, and variants of invalid originals are dropped after.
    // A 250 KB message (ihe-xds-iti41-ipf) varied 30 times costs seconds in xmldom and xmllint and shows nothing a small one does not.
    const drawn = all.filter((m) => m.body.length <= MAX_VARIED_CHARS);
    while (drawn.length > limits.messages) drawn.splice(Math.floor(rng.next() * drawn.length), 1);
    const owned: { m: Message; v: Variant }[] = [];
    for (const m of drawn) {
      const mine = variantsOf(m.body, rng, { perMessage: limits.perMessage, types, response: m.side === 'response' });
      // A few site variations written again as another toolkit would lay them out.
      const sites = mine.filter((v) => v.canary);
      for (let i = 0; i < limits.relaidOut && sites.length; i++) mine.push(relaidOut(sites.splice(Math.floor(rng.next() * sites.length), 1)[0], rng));
      for (const v of mine) owned.push({ m, v });
    }
    const canaries = owned.flatMap((o, i) => (o.v.canary ? [i] : []));
    const verdicts = await validity(set, [...all.map((m) => m.body), ...owned.map((o) => o.v.text), ...canaries.map((i) => owned[i].v.canary!)]);
    const okOriginal = new Map(all.map((m, i) => [m, verdicts[i]]));
    const ok = verdicts.slice(all.length, all.length + owned.length);
    const canaryOk = verdicts.slice(all.length + owned.length);
    a.originals = { valid: all.filter((m) => okOriginal.get(m)).length, total: all.length };
    canaries.forEach((i, k) => {
      if (canaryOk[k] && ok[i]) {
        ok[i] = false;
        a.unjudged++;
      }
    });
    const kept = owned.filter((o, i) => ok[i] && okOriginal.get(o.m));
    a.variants.generated = owned.filter((o) => okOriginal.get(o.m)).length;
    a.variants.valid = kept.length;
    for (const { m, v } of kept) {
      const kind = a.byKind.get(v.kind) ?? { valid: 0, accepted: 0 };
      a.byKind.set(v.kind, kind);
      kind.valid++;
      const why = accepts(m, v.text);
      if (why.length === 0) {
        kind.accepted++;
        a.variants.accepted++;
      } else a.rejections.push({ side: m.side, scenario: m.tc.name, what: v.what, why: why.join(' | ') });
    }
  } catch (e) {
    if (!(e instanceof SchemaLoadError)) throw e;
    a.loadError = e.message;
  }
  a.ms = Date.now() - started;
  return a;
}
