import { facetsText } from './scalars/facets';
import { SCALARS } from './scalars/index';
import type { Pattern } from './types';

/** How a pattern reads in a report: "(number)", "a JSON object", "node <id>". */
export function describePattern(p: Pattern): string {
  switch (p.kind) {
    case 'scalar':
      return `(${SCALARS[p.type].written}${facetsText(p.facets)})`;
    case 'text-list':
      return `(list ${describePattern(p.item).slice(1, -1)}${facetsText(p.facets)})`;
    case 'union':
      return `(${p.members.map((m) => unwrapped(describePattern(m))).join(' | ')})`;
    case 'literal':
      return JSON.stringify(p.value);
    case 'enum':
      return `(${p.name}): one of ${p.values.join(', ')}`;
    case 'ref':
      return `(${p.name})`;
    case 'optional':
      return `${describePattern(p.inner).replace(/\)$/, '?)')}`;
    case 'list':
      return `a list of ${describePattern(p.inner)}`;
    case 'lookup':
      return describePattern(p.inner);
    case 'object':
      return 'a JSON object';
    case 'array':
      return 'a JSON array';
    case 'dictionary':
      return `a JSON object of ${describePattern(p.key)} to ${describePattern(p.value)}`;
    case 'xml':
      return `node <${p.local}>`;
  }
}

/** "(x)" without its parentheses, for a union's members. */
function unwrapped(text: string): string {
  return text.startsWith('(') && text.endsWith(')') ? text.slice(1, -1) : text;
}
