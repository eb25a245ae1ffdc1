import { isTemplateCell } from '../contract/check-examples';
import { REQUEST_BODY_COLUMN, type TestCase } from '../contract/model';
import { generateBody, generateText, type GenerateContext } from '../pattern/generate/index';
import { createRandom, seedFrom } from '../pattern/random';
import { resolve } from '../pattern/resolve';
import { contentTypeFor } from './content-type';
import type { HttpRequest } from './message';
import { withOptionalHeadersLeftOut } from './soap-headers';

/** A request for one test case, deterministic for a given seed. */
export function buildRequest(tc: TestCase, seed = 0): HttpRequest {
  const s = tc.scenario;
  let examples = tc.row?.values ?? new Map<string, string>();
  // A `{{…}}` cell is the stub's response template: the request gets a generated value there (docs/stub.md).
  if ([...examples.values()].some(isTemplateCell)) examples = new Map([...examples].filter(([, v]) => !isTemplateCell(v)));
  const ctx: GenerateContext = { scope: s.scope, rng: createRandom(seedFrom(tc.name, seed)), examples };
  let path = '/' + s.request.segments.map((seg) => encodeURIComponent(seg.pattern ? generateText(seg.pattern, ctx, seg.name) : seg.name)).join('/');
  // A trailing slash is sent as written (`POST /2.0/`): servers often answer the path without it with a redirect or a 404.
  if (s.request.segments.length > 0 && s.request.path.split('?')[0].endsWith('/')) path += '/';
  const query: [string, string][] = [];
  for (const q of s.request.query) {
    const v = examples.get(q.name);
    if (v === '') continue;
    query.push([q.name, v ?? generateText(q.pattern, ctx)]);
  }
  const headers: Record<string, string> = {};
  for (const h of s.request.headers) {
    const v = examples.get(h.name);
    if (v === '' && h.optional) continue;
    headers[h.name.toLowerCase()] = v ?? generateText(h.pattern, ctx);
  }
  // SOAP 1.1 (6.1.1) and WS-I BP (R1109): SOAPAction is a quoted string. A contract imported before
  // accord wrote only the quoted form lists the bare one too: a generated value is sent quoted.
  const action = headers.soapaction;
  if (action !== undefined && !examples.has('SOAPAction') && !(action.length >= 2 && action.startsWith('"') && action.endsWith('"'))) headers.soapaction = `"${action}"`;
  let body = '';
  if (examples.has(REQUEST_BODY_COLUMN)) {
    body = examples.get(REQUEST_BODY_COLUMN)!;
    if (!headers['content-type']) headers['content-type'] = body.trim().startsWith('<') ? 'text/xml; charset=utf-8' : 'application/json';
  } else if (s.request.body) {
    const generated = generateBody(s.request.body, { ...ctx, examples: withOptionalHeadersLeftOut(s.request.body, s.scope, examples) });
    body = generated.text;
    if (!headers['content-type']) {
      const root = resolve(s.request.body, s.scope);
      headers['content-type'] = contentTypeFor(generated.kind, root.kind === 'xml' ? root : undefined);
    }
  } else if (s.request.formFields.length > 0) {
    const form = new URLSearchParams();
    for (const f of s.request.formFields) form.append(f.name, examples.get(f.name) ?? generateText(f.pattern, ctx));
    body = form.toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (s.request.parts.length > 0) {
    const boundary = `accord-${seedFrom(tc.name, seed).toString(16)}`;
    body =
      s.request.parts.map((p) => `--${boundary}\r\ncontent-disposition: form-data; name="${p.name}"\r\n\r\n${examples.get(p.name) ?? generateText(p.pattern, ctx)}\r\n`).join('') +
      `--${boundary}--\r\n`;
    headers['content-type'] ??= `multipart/form-data; boundary=${boundary}`;
  }
  return { method: s.request.method, path, query, headers, body };
}
