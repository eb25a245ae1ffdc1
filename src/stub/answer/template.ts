import { Stop, untilStopped } from '../../errors';
import type { ExampleRow, Scenario } from '../../contract/model';
import { attributeValue, elementText, newIdTable, occurrences, slotElement, type GenerateContext } from '../../pattern/generate/index';
import { XML_NODE_BUDGET } from '../../limits';
import type { Random } from '../../pattern/random';
import { contentSlots, effectiveElement, resolve } from '../../pattern/resolve';
import { encodedAccessor, encodingInside, type EncodingScope } from '../../pattern/generate/soap-encoding';
import type { Scope, XmlElementPattern } from '../../pattern/types';
import { escapeAttribute, escapeText } from '../../xml/serialize';

/**
 * An XML response body compiled once into a template: element names, namespace
 * declarations and the tree of slots are fixed at start-up; every per-node
 * decision (how many times a node occurs, which value, whether an Examples cell
 * fits there) is made per request by the generator's own functions
 * (`occurrences`, `attributeValue`, `elementText`), in the same order. So a
 * template gives byte for byte what `generateBody` gives
 * for the same random stream (a test checks this on every contract), at a
 * fraction of the cost: no pattern walk, no tree, no serialiser.
 *
 * Anything unusual (a very deep or recursive type, a text slot that is not a
 * scalar) makes `compileXmlTemplate` return undefined and the stub uses the
 * core generator for that scenario instead.
 */
/** `examples`: the row's values with its `{{…}}` cells filled (response-template.ts fillRow); else the row's own. */
export type XmlTemplate = (rng: Random, examples?: ReadonlyMap<string, string>, placed?: GenerateContext['placed']) => string;

/** Writes its part of the body; an element's part returns how many nodes it made (an encoded array counts its members). */
type Emit = (ctx: GenerateContext, out: string[]) => number | void;

/** Deeper than this is left to the core generator (its own depth rules then apply). */
const MAX_COMPILED_DEPTH = 20;
/** Compiled parts beyond this are left to the core generator too (nothing real comes near). */
const MAX_PARTS = 5_000;

const GIVE_UP = new Stop('too deep or too large to compile');

export function compileXmlTemplate(s: Scenario, row?: ExampleRow): XmlTemplate | undefined {
  if (!s.response.body) return undefined;
  const rowValues = row?.values;
  const compiler = new Compiler(s.scope);
  const root = resolve(s.response.body, s.scope);
  if (root.kind !== 'xml') return undefined;
  const emit = untilStopped(GIVE_UP, () => compiler.element(root, 0, true));
  if (!emit) return undefined;
  const scope = s.scope;
  return (rng, examples = rowValues, placed) => {
    const out: string[] = [];
    emit({ scope, rng, examples, budget: { left: XML_NODE_BUDGET }, placed, ids: newIdTable() }, out);
    return out.join('');
  };
}

/**
 * Fixes at compile time what does not depend on the random stream (names,
 * namespace declarations, the tree of slots) and leaves every decision the
 * generator makes per node (how many, which value, which Examples cell fits)
 * to the generator's own functions, called at the same points in the same order.
 */
class Compiler {
  private parts = 0;

  constructor(private readonly scope: Scope) {}

  /** generateXml: how many times the node occurs, then the node itself. */
  element(p: XmlElementPattern, depth: number, root = false, encoding?: EncodingScope): Emit {
    if (depth > MAX_COMPILED_DEPTH || ++this.parts > MAX_PARTS) throw GIVE_UP;
    const eff = effectiveElement(p, this.scope);
    // An abstract type's instance is a derived type picked per response: left to the generator.
    if (eff.abstract) throw GIVE_UP;
    const one = this.oneElement(eff, depth + 1, encoding);
    return (ctx, out) => {
      const budget = ctx.budget!;
      const n = root ? 1 : occurrences(p, eff.local, ctx, depth, budget);
      budget.left -= n;
      for (let i = 0; i < n; i++) one(ctx, out);
      return n;
    };
  }

  /** generateOneElement, serialised as serializeXml would. */
  private oneElement(p: XmlElementPattern, depth: number, outer: EncodingScope | undefined): Emit {
    const steps: (string | Emit)[] = [];
    const encoding = encodingInside(p, outer);
    let open = `<${p.name}`;
    for (const n of [...p.namespaces, ...encoding.declare]) open += ` ${n.name}="${escapeAttribute(n.value)}"`;
    steps.push(open);
    for (const a of p.attributes) {
      const prefix = ` ${a.name}="`;
      steps.push((ctx, out) => {
        const value = attributeValue(a, ctx);
        if (value !== undefined) out.push(prefix, escapeAttribute(value), '"');
      });
    }
    const accessor = encoding.scope ? encodedAccessor(p, this.scope, encoding.scope) : undefined;
    if (accessor?.type) steps.push(` ${accessor.type[0]}="${escapeAttribute(accessor.type[1])}"`);
    const children: (string | Emit)[] = [];
    for (const slot of contentSlots(p.content, this.scope)) {
      if (slot.kind === 'text') children.push((ctx, out) => void out.push(escapeText(elementText(p.local, slot.pattern, ctx))));
      else if (slot.kind === 'element') children.push(this.element(slotElement(slot), depth, false, encoding.scope));
      // Choices and wildcards are left to the generator itself (generateXml), which decides them.
      else throw GIVE_UP;
    }
    const close = `</${p.name}>`;
    const head = merge(steps);
    const body = merge(children);
    // An element with no children at all serialises as `<x/>`; whether it has any may only be known per request.
    const array = accessor?.array;
    return (ctx, out) => {
      run(head, ctx, out);
      // An encoded array's size is known once its members are made: its attributes are written into this place then.
      const sized = out.length;
      if (array) out.push('');
      const mark = out.length;
      out.push('>');
      const made = run(body, ctx, out);
      if (array)
        out[sized] = array(made)
          .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
          .join('');
      if (out.length === mark + 1 || isEmptyTail(out, mark + 1)) {
        out.length = mark;
        out.push('/>');
      } else out.push(close);
    };
  }
}

/** True when everything pushed after `from` is empty text (a generated '' is not a child node). */
function isEmptyTail(out: string[], from: number): boolean {
  for (let i = from; i < out.length; i++) if (out[i] !== '') return false;
  return true;
}

/** Adjacent static strings joined once at compile time. */
function merge(steps: (string | Emit)[]): (string | Emit)[] {
  const merged: (string | Emit)[] = [];
  for (const s of steps) {
    const last = merged[merged.length - 1];
    if (typeof s === 'string' && typeof last === 'string') merged[merged.length - 1] = last + s;
    else merged.push(s);
  }
  return merged;
}

/** Runs the steps; the number of element nodes they made. */
function run(steps: (string | Emit)[], ctx: GenerateContext, out: string[]): number {
  let made = 0;
  for (const s of steps) {
    if (typeof s === 'string') out.push(s);
    else made += s(ctx, out) ?? 0;
  }
  return made;
}
