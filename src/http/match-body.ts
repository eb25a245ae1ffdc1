import { AccordError, formatLocation } from '../errors';
import { bodyKind } from '../pattern/generate/index';
import { matchJson, matchText, matchXml, prefixPaths } from '../pattern/match/index';
import { type Mismatch, shown } from '../pattern/match/mismatch';
import { noteOpaqueRead } from '../pattern/match/probe';
import type { Pattern, Scope } from '../pattern/types';
import type { ParsedBody } from './body';

/** A body against its pattern; `where` is "REQUEST.BODY" or "RESPONSE.BODY"; `limit`: see matchXml. */
export function matchBody(pattern: Pattern | undefined, body: ParsedBody, scope: Scope, where: string, limit = Infinity): Mismatch[] {
  if (!pattern) return [];
  const kind = bodyKind(pattern, scope);
  if (kind === 'xml') {
    const xml = body.asXml();
    if (xml instanceof AccordError) {
      const at = formatLocation(xml.location);
      return [{ path: where, expected: 'an XML document', actual: `${body.text.trim() === '' ? 'an empty body' : shown(body.text, 60)} (${at ? `${at}: ` : ''}${xml.message})` }];
    }
    return prefixPaths(where, matchXml(pattern, xml, scope, limit));
  }
  if (kind === 'json') {
    const json = body.asJson();
    if (json instanceof AccordError)
      return [{ path: where, expected: 'a JSON document', actual: `${body.text.trim() === '' ? 'an empty body' : shown(body.text, 60)} (${json.message})` }];
    return prefixPaths(where, matchJson(pattern, json.value, scope, '', limit));
  }
  // The whole body as text: its verdict hangs on all of it.
  noteOpaqueRead();
  return prefixPaths(where, matchText(pattern, body.text.trim(), scope));
}
