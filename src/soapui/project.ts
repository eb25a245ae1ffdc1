import type {
  Assertion,
  MockOperation,
  MockService,
  NotCarried,
  Place,
  Properties,
  RequestCall,
  SoapuiInterface,
  SoapuiProject,
  TestCase,
  TestStep,
  TestSuite,
  WssConfig,
  WssCrypto,
} from './model';
import { serializeXml } from '../xml/serialize';
import { attr, isNil, kid, kids, kidText, lineOf, text, xsiType, type Node } from './tree';

/**
 * The project model from a `con:soapui-project` tree (a composite project's files are put together
 * into one such tree first, source.ts). Pure: no file is read here. What the model has no place for
 * (Groovy, property transfers, loops, REST services, load tests) is listed in `notCarried` by name
 * and place as it is met.
 */
export function readProject(root: Node, composite: boolean): SoapuiProject {
  const notCarried: NotCarried[] = [];
  const name = attr(root, 'name') ?? 'project';
  const place = (n: Node, path: string): Place => ({ file: n.file, line: lineOf(n), path });
  const skip = (n: Node, what: string, path: string, why?: string) => notCarried.push(why === undefined ? { what, place: place(n, path) } : { what, place: place(n, path), why });

  const interfaces: SoapuiInterface[] = [];
  for (const i of kids(root, 'interface')) {
    const iname = attr(i, 'name') ?? '';
    const kind = attr(i, 'type') ?? (xsiType(i) === 'WsdlInterface' ? 'wsdl' : (xsiType(i) ?? 'unknown'));
    if (kind !== 'wsdl') {
      skip(i, `${xsiType(i) === 'RestService' ? 'REST service' : `${kind} interface`} "${iname}"`, `interface "${iname}"`, 'only WSDL (SOAP) interfaces are imported');
      continue;
    }
    const cache = kid(i, 'definitionCache');
    // Requests saved on an operation (SoapUI's request editor) assert nothing and belong to no test case.
    for (const o of kids(i, 'operation'))
      for (const c of kids(o, 'call'))
        skip(c, `request "${attr(c, 'name') ?? ''}" saved on operation "${attr(o, 'name') ?? ''}"`, `interface "${iname}"`, 'only test steps and mock responses become examples');
    interfaces.push({
      name: iname,
      kind,
      soapVersion: attr(i, 'soapVersion') === '1_2' ? '1.2' : '1.1',
      definition: attr(i, 'definition') ?? '',
      rootPart: cache ? attr(cache, 'rootPart') : undefined,
      parts: cache ? kids(cache, 'part').map((p) => ({ url: kidText(p, 'url') ?? '', content: contentOf(kid(p, 'content')), type: kidText(p, 'type') ?? '' })) : [],
      operations: kids(i, 'operation').map((o) => ({ name: attr(o, 'name') ?? '', action: attr(o, 'action') || undefined })),
      endpoints: kids(kid(i, 'endpoints') ?? i, 'endpoint').map((e) => text(e)),
      place: place(i, `interface "${iname}"`),
    });
  }
  for (const r of kids(root, ['restService', 'resource'])) skip(r, `REST resource "${attr(r, 'name') ?? ''}"`, '', 'only WSDL (SOAP) interfaces are imported');

  const suites: TestSuite[] = kids(root, 'testSuite').map((s) => {
    const sname = attr(s, 'name') ?? '';
    const spath = `test suite "${sname}"`;
    const scripts = scriptsOf(s);
    for (const k of scripts) skip(s, `${k} of ${spath}`, spath, 'Groovy is not run');
    const cases: TestCase[] = kids(s, 'testCase').map((c) => {
      const cname = attr(c, 'name') ?? '';
      const cpath = `${spath} / test case "${cname}"`;
      const cscripts = scriptsOf(c);
      for (const k of cscripts) skip(c, `${k} of test case "${cname}"`, cpath, 'Groovy is not run');
      const steps = kids(c, 'testStep').map((t) => readStep(t, cpath, place, skip));
      return { name: cname, properties: propertiesOf(c), steps, scripts: cscripts, place: place(c, cpath) };
    });
    return { name: sname, properties: propertiesOf(s), cases, scripts, place: place(s, spath) };
  });

  const mocks: MockService[] = kids(root, 'mockService').map((m) => {
    const mname = attr(m, 'name') ?? '';
    const mpath = `mock service "${mname}"`;
    const scripts = scriptsOf(m);
    for (const k of scripts) skip(m, `${k} of ${mpath}`, mpath, 'Groovy is not run');
    const operations: MockOperation[] = kids(m, 'mockOperation').map((o) => {
      const oname = attr(o, 'name') ?? '';
      const opath = `${mpath} / mock operation "${oname}"`;
      const dispatchConfig = kid(o, 'dispatchConfig');
      return {
        name: oname,
        interface: attr(o, 'interface') ?? '',
        operation: attr(o, 'operation') ?? '',
        dispatchStyle: (kidText(o, 'dispatchStyle') ?? 'SEQUENCE').trim(),
        defaultResponse: kidText(o, 'defaultResponse') || undefined,
        dispatchPath: kidText(o, 'dispatchPath'),
        queries: dispatchConfig
          ? kids(dispatchConfig, 'query').map((q) => ({
              name: kidText(q, 'name') ?? '',
              xpath: kidText(q, 'query') ?? '',
              match: kidText(q, 'match') ?? '',
              response: kidText(q, 'response') ?? '',
            }))
          : [],
        responses: kids(o, 'response').map((r) => {
          const status = Number(attr(r, 'httpResponseStatus'));
          const rname = attr(r, 'name') ?? '';
          return {
            name: rname,
            status: Number.isInteger(status) && status >= 100 && status <= 599 ? status : undefined,
            content: lineEnds(kidText(r, 'responseContent') ?? ''),
            place: place(r, `${opath} / response "${rname}"`),
          };
        }),
        place: place(o, opath),
      };
    });
    return { name: mname, path: attr(m, 'path') ?? '/', port: attr(m, 'port'), properties: propertiesOf(m), operations, scripts, place: place(m, mpath) };
  });
  for (const l of kids(root, ['loadTest', 'loadUiTest', 'securityTest']))
    skip(l, `${l.local === 'securityTest' ? 'security test' : 'load test'} "${attr(l, 'name') ?? ''}"`, '', 'only functional test steps and mock services are imported');
  for (const k of scriptsOf(root)) skip(root, `project ${k}`, '', 'Groovy is not run');

  const wss: WssConfig[] = [];
  const crypto: WssCrypto[] = [];
  const container = kid(root, 'wssContainer');
  if (container) {
    for (const c of kids(container, 'crypto'))
      crypto.push({ source: kidText(c, 'source') ?? '', type: kidText(c, 'type') ?? 'KEYSTORE', place: place(c, `WS-Security keystore "${kidText(c, 'source') ?? ''}"`) });
    for (const dir of ['outgoing', 'incoming'] as const) {
      for (const w of kids(container, dir)) {
        const wname = kidText(w, 'name') ?? '';
        wss.push({
          name: wname,
          direction: dir,
          entries: kids(w, 'entry').map((e) => {
            const cfg = kid(e, 'configuration');
            return { type: attr(e, 'type') ?? '', username: attr(e, 'username'), password: attr(e, 'password'), config: cfg ? configOf(cfg) : {} };
          }),
          place: place(w, `WS-Security ${dir} configuration "${wname}"`),
        });
        if (dir === 'incoming') {
          for (const k of ['decryptCrypto', 'signatureCrypto']) {
            const v = kidText(w, k);
            if (v) skip(w, `${k} "${v}" of incoming WS-Security "${wname}"`, `WS-Security incoming configuration "${wname}"`, 'keystores are not converted');
          }
        }
      }
    }
  }
  return { name, file: root.file, composite, properties: propertiesOf(root), interfaces, suites, mocks, wss, crypto, notCarried };
}

function readStep(t: Node, casePath: string, place: (n: Node, p: string) => Place, skip: (n: Node, what: string, path: string, why?: string) => void): TestStep {
  const name = attr(t, 'name') ?? '';
  const type = attr(t, 'type') ?? '';
  const path = `${casePath} / step "${name}"`;
  const disabled = attr(t, 'disabled') === 'true';
  const config = kid(t, 'config');
  const step: TestStep = { name, type, disabled, place: place(t, path) };
  if (type === 'request' && config) {
    const iface = kidText(config, 'interface') ?? '';
    const operation = kidText(config, 'operation') ?? '';
    const r = kid(config, 'request');
    if (r) step.request = readCall(r, iface, operation, name);
  } else if (type === 'properties' && config) {
    step.properties = propertiesOf(config);
  } else {
    const why =
      type === 'groovy'
        ? 'Groovy is not run'
        : type === 'transfer'
          ? `property transfers are not carried over${config ? `: ${transfersOf(config)}` : ''}`
          : type === 'delay'
            ? 'delays are not carried over'
            : 'this kind of step is not carried over';
    const what = type === 'groovy' ? 'Groovy step' : type === 'transfer' ? 'property transfer step' : `${type} step`;
    skip(t, `${what} "${name}"`, path, why);
  }
  if (step.request) {
    for (const a of step.request.assertions) {
      if (a.type === 'GroovyScriptAssertion') skip(t, `Groovy script assertion "${a.name}" of step "${name}"`, path, 'Groovy is not run');
    }
  }
  return step;
}

function readCall(r: Node, iface: string, operation: string, stepName: string): RequestCall {
  const headers: [string, string][] = [];
  const settings = kid(r, 'settings');
  for (const s of settings ? kids(settings, 'setting') : []) {
    if (!(attr(s, 'id') ?? '').endsWith('@request-headers')) continue;
    // An escaped `<xml-fragment>` of `<con:entry key value/>`: read without a parser, entries being attributes only.
    for (const [k, v] of entryAttributes(text(s))) headers.push([k, v]);
  }
  return {
    interface: iface,
    operation,
    name: attr(r, 'name') ?? stepName,
    endpoint: kidText(r, 'endpoint'),
    body: lineEnds(kidText(r, 'request') ?? ''),
    headers,
    assertions: kids(r, 'assertion').map(readAssertion),
    outgoingWss: attr(r, 'outgoingWss') || undefined,
    incomingWss: attr(r, 'incomingWss') || undefined,
  };
}

function readAssertion(a: Node): Assertion {
  const cfg = kid(a, 'configuration');
  return { type: attr(a, 'type') ?? '', name: attr(a, 'name') ?? attr(a, 'type') ?? '', config: cfg ? configOf(cfg) : {}, disabled: attr(a, 'disabled') === 'true' };
}

/**
 * A cached document: CDATA text in most projects, the document's own elements in older ones; those
 * are written out again with the namespace declarations in scope that they use.
 */
function contentOf(n: Node | undefined): string {
  if (!n) return '';
  const el = n.kids[0];
  if (!el) return text(n);
  const declared = new Set(el.el.attributes.filter((a) => a.name === 'xmlns' || a.prefix === 'xmlns').map((a) => (a.name === 'xmlns' ? '' : a.local)));
  const inherited = [...el.scope].filter(([p]) => !declared.has(p) && p !== '').map(([p, uri]) => ({ name: `xmlns:${p}`, prefix: 'xmlns', local: p, value: uri }));
  return serializeXml({ ...el.el, attributes: [...el.el.attributes, ...inherited] });
}

/** A configuration's children by local name (SoapUI writes them unprefixed), the first of each. */
function configOf(n: Node): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of n.kids) if (!(k.local in out) && !isNil(k)) out[k.local] = text(k);
  return out;
}

function propertiesOf(n: Node): Properties {
  const out = new Map<string, string>();
  const holder = kid(n, 'properties');
  for (const p of holder ? kids(holder, 'property') : []) {
    const name = kidText(p, 'name');
    if (name !== undefined) out.set(name, kidText(p, 'value') ?? '');
  }
  return out;
}

/** The scripts an element carries (setup, tear-down, after-load, on-request...), by their attribute or element name, non-empty only. */
function scriptsOf(n: Node): string[] {
  const out: string[] = [];
  for (const k of ['setupScript', 'tearDownScript', 'afterLoadScript', 'onRequestScript', 'afterRequestScript', 'startScript', 'stopScript']) {
    const s = kid(n, k);
    if (s && text(s).trim() !== '') out.push(k);
  }
  return out;
}

function transfersOf(config: Node): string {
  return kids(config, 'transfers')
    .map((t) => {
      const from = `${kidText(t, 'sourceStep') ?? ''}#${kidText(t, 'sourceType') ?? ''}`;
      const to = `${kidText(t, 'targetStep') ?? ''}#${kidText(t, 'targetType') ?? ''}`;
      return `"${kidText(t, 'name') ?? ''}" ${from} → ${to}`;
    })
    .join(', ');
}

/** `key="…" value="…"` pairs of an `<entry …/>` list (the text of a request-headers setting). */
export function entryAttributes(s: string): [string, string][] {
  const out: [string, string][] = [];
  let at = 0;
  for (let n = 0; n < 1000; n++) {
    const start = s.indexOf('<entry', at);
    if (start < 0) break;
    const end = s.indexOf('>', start);
    if (end < 0) break;
    const tag = s.slice(start, end);
    const key = attributeIn(tag, 'key');
    const value = attributeIn(tag, 'value');
    if (key !== undefined) out.push([key, value ?? '']);
    at = end + 1;
  }
  return out;
}

function attributeIn(tag: string, name: string): string | undefined {
  for (const q of ['"', "'"]) {
    const i = tag.indexOf(` ${name}=${q}`);
    if (i < 0) continue;
    const from = i + name.length + 3;
    const to = tag.indexOf(q, from);
    if (to < 0) return undefined;
    return unescape(tag.slice(from, to));
  }
  return undefined;
}

/** CR LF and a lone CR as LF, as an XML reader reads line ends (XML 1.0 section 2.11): SoapUI on Windows keeps them inside CDATA. */
function lineEnds(s: string): string {
  return s.includes('\r') ? s.split('\r\n').join('\n').split('\r').join('\n') : s;
}

function unescape(s: string): string {
  return [
    ['&quot;', '"'],
    ['&apos;', "'"],
    ['&lt;', '<'],
    ['&gt;', '>'],
    ['&amp;', '&'],
  ].reduce((t, [from, to]) => t.split(from).join(to), s);
}
