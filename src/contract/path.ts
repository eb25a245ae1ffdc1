import { AccordError } from '../errors';
import { parsePlaceholder } from '../pattern/placeholder';
import type { Pattern } from '../pattern/types';
import type { PathSegment, QueryParam } from './model';

/** `/pets/(petid:number)?name=(string)&limit=10` into typed segments and query parameters. */
export function parseRequestPath(raw: string): { segments: PathSegment[]; query: QueryParam[] } {
  if (!raw.startsWith('/')) throw new AccordError('ACCORD_ERR_CONTRACT_SYNTAX', `path "${raw}" must start with "/"`);
  const q = raw.indexOf('?');
  const pathPart = q < 0 ? raw : raw.slice(0, q);
  const queryPart = q < 0 ? '' : raw.slice(q + 1);
  const segments: PathSegment[] = pathPart
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      const p = parsePlaceholder(s);
      if (!p) return { name: decodePercent(s) };
      if (p.kind === 'lookup') return { name: p.key, pattern: p.inner };
      return { name: s.slice(1, -1), pattern: p };
    });
  const query: QueryParam[] = queryPart
    .split('&')
    .filter((s) => s !== '')
    .map((pair) => {
      const eq = pair.indexOf('=');
      // Names are written percent-encoded where they must be (the log importer does) and compared decoded.
      const name = decodePercent(eq < 0 ? pair : pair.slice(0, eq));
      const value = eq < 0 ? '(string)' : pair.slice(eq + 1);
      let pattern: Pattern = parsePlaceholder(value) ?? { kind: 'literal', value: decodePercent(value) };
      if (pattern.kind === 'lookup') pattern = pattern.inner;
      return { name, pattern };
    });
  return { segments, query };
}

/** Percent-decoded, or as it is where it is not valid percent-encoding (a stray `%` is a character, not an error). */
export function decodePercent(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
