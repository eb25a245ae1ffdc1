import type { Properties } from './model';

/**
 * SoapUI property expansion: `${#Project#name}`, `${#TestSuite#name}`, `${#TestCase#name}`,
 * `${#MockService#name}`, `${Step#name}` (a properties step), and bare `${name}` (test case, then
 * suite, then project), resolved from the values the project defines. What cannot be known without
 * running SoapUI is left as written and named: `${=groovy}`, `${#System#…}`, `${#Env#…}`,
 * `${projectDir}`, `${Step#Response#xpath}` and `${Step#Request#…}`, and any name the project does
 * not define. Nested expansions (`${#Project#${#TestCase#env}Url}`) are resolved inside out.
 */
export interface Scopes {
  project: Properties;
  suite?: Properties;
  testCase?: Properties;
  mock?: Properties;
  /** Properties steps of the test case, by step name. */
  steps?: ReadonlyMap<string, Properties>;
}

export interface Expanded {
  text: string;
  /** The expansions left as written, each once, as written (`${=new Date()}`). */
  unresolved: string[];
}

/** Most expansions done in one text (a property whose value expands to itself stops here). */
const MAX_EXPANSIONS = 10_000;
const MAX_DEPTH = 8;

export function expand(text: string, scopes: Scopes): Expanded {
  const unresolved = new Set<string>();
  const budget = { left: MAX_EXPANSIONS };
  const out = expandIn(text, scopes, unresolved, budget, 0);
  return { text: out, unresolved: [...unresolved] };
}

function expandIn(text: string, scopes: Scopes, unresolved: Set<string>, budget: { left: number }, depth: number): string {
  if (!text.includes('${')) return text;
  let out = '';
  let at = 0;
  while (at < text.length) {
    const start = text.indexOf('${', at);
    if (start < 0) break;
    const end = closing(text, start + 2);
    if (end < 0) break;
    out += text.slice(at, start);
    const whole = text.slice(start, end + 1);
    let inner = text.slice(start + 2, end);
    if (inner.includes('${') && depth < MAX_DEPTH) inner = expandIn(inner, scopes, unresolved, budget, depth + 1);
    const value = budget.left-- > 0 ? lookup(inner, scopes) : undefined;
    if (value === undefined) {
      unresolved.add(whole);
      out += whole;
    } else {
      // A value may itself hold expansions (a project property naming another).
      out += depth < MAX_DEPTH && value.includes('${') ? expandIn(value, scopes, unresolved, budget, depth + 1) : value;
    }
    at = end + 1;
  }
  return out + text.slice(at);
}

/** The `}` closing the expansion opened before `from`, counting nested `${`; -1 when none. */
function closing(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '$' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (c === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

function lookup(inner: string, s: Scopes): string | undefined {
  if (inner.startsWith('=')) return undefined;
  if (inner.startsWith('#')) {
    const second = inner.indexOf('#', 1);
    if (second < 0) return undefined;
    const scope = inner.slice(1, second);
    const name = inner.slice(second + 1);
    const table = scope === 'Project' ? s.project : scope === 'TestSuite' ? s.suite : scope === 'TestCase' ? s.testCase : scope === 'MockService' ? s.mock : undefined;
    return table?.get(name);
  }
  const hash = inner.indexOf('#');
  if (hash >= 0) {
    // `${Step#name}`: a properties step's value; `${Step#Response#…}` needs a run.
    const step = s.steps?.get(inner.slice(0, hash));
    const name = inner.slice(hash + 1);
    return name.includes('#') ? undefined : step?.get(name);
  }
  return s.testCase?.get(inner) ?? s.suite?.get(inner) ?? s.project.get(inner) ?? s.mock?.get(inner);
}
