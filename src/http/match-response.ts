import type { Scenario } from '../contract/model';
import { hexPreview } from '../printable';
import { matchText } from '../pattern/match/index';
import { append, at, type Mismatch, WHERE } from '../pattern/match/mismatch';
import { ParsedBody } from './body';
import { hideCredential } from './credentials';
import { matchBody } from './match-body';
import type { HttpResponse } from './message';

/** Every way a response differs from what the scenario promises. */
export function matchResponse(s: Scenario, res: HttpResponse, parsed: ParsedBody = new ParsedBody(res.body)): Mismatch[] {
  if (res.status !== s.response.status) {
    // The body of an unexpected status is some other document; comparing it field by field only adds noise.
    return [{ path: WHERE.responseStatus, expected: String(s.response.status), actual: String(res.status) }];
  }
  const out: Mismatch[] = [];
  for (const h of s.response.headers) {
    const value = res.headers[h.name.toLowerCase()];
    const path = at(WHERE.responseHeader, h.name);
    if (value === undefined) {
      if (!h.optional) out.push({ path, expected: `header ${h.name}`, actual: 'no such header' });
      continue;
    }
    append(out, hideCredential(h.name, matchText(h.pattern, value, s.scope, path)));
  }
  const body = matchBody(s.response.body, parsed, s.scope, WHERE.responseBody);
  // A binary answer (gzip, an image) is described by its bytes, not as text full of replacement characters.
  if (res.binary) for (const m of body) if (m.path === WHERE.responseBody) m.actual = hexPreview(res.binary);
  return append(out, body);
}
