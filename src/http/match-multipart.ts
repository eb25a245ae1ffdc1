import type { FormField } from '../contract/model';
import { matchText } from '../pattern/match/index';
import { append, at, type Mismatch, shown, WHERE } from '../pattern/match/mismatch';
import type { Scope } from '../pattern/types';
import { splitMultipart } from './multipart';

interface Part {
  name?: string;
  content: string;
}

/**
 * `request-part name (type)` steps against a `multipart/form-data` body (RFC
 * 7578): the parts are found by the boundary the Content-Type names, each by
 * the name in its Content-Disposition; every declared part must be there with
 * content of its type, and no undeclared part may be (the rule of form fields
 * and query parameters). A file part (`request-part data @file.csv`) takes any
 * content. Without this a multipart scenario would accept any body.
 */
export function matchMultipart(parts: readonly FormField[], body: string, contentType: string | undefined, scope: Scope): Mismatch[] {
  const boundary = boundaryOf(contentType);
  if (boundary === undefined) {
    return [
      { path: at(WHERE.requestHeader, 'Content-Type'), expected: 'multipart/form-data with a boundary', actual: contentType === undefined ? 'no such header' : shown(contentType) },
    ];
  }
  const given = splitParts(body, boundary);
  if (given === undefined) return [{ path: WHERE.requestBody, expected: `a multipart body with parts separated by --${boundary}`, actual: shown(body) }];
  const out: Mismatch[] = [];
  const declared = new Set<string>();
  for (const p of parts) {
    declared.add(p.name);
    const path = at(WHERE.requestPart, p.name);
    const found = given.find((g) => g.name === p.name);
    if (!found) out.push({ path, expected: `part ${p.name}`, actual: 'no such part' });
    else append(out, matchText(p.pattern, found.content, scope, path));
  }
  for (const g of given) {
    if (g.name === undefined) out.push({ path: WHERE.requestPart, expected: 'a part named in its Content-Disposition', actual: 'a part without a name' });
    else if (!declared.has(g.name)) out.push({ path: at(WHERE.requestPart, g.name), expected: 'no such part', actual: `unexpected part "${g.name}"` });
  }
  return out;
}

export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) return undefined;
  const m = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : undefined;
}

/**
 * The named parts of a form, read by the one multipart splitter (multipart.ts, also XOP's); undefined
 * when the body has no such structure, is cut short (no closing `--boundary--`) or has more than
 * MAX_MIME_PARTS parts.
 */
function splitParts(body: string, boundary: string): Part[] | undefined {
  const split = splitMultipart(Buffer.from(body, 'utf8'), boundary);
  if (!split?.closed) return undefined;
  return split.parts.map((p) => {
    const disposition = p.headers.get('content-disposition');
    const name = disposition === undefined ? null : /;\s*name\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(disposition);
    return { name: name ? (name[1] ?? name[2]) : undefined, content: p.content.toString('utf8') };
  });
}
