import type { ExampleRow, Scenario } from '../contract/model';
import { generateText, type GenerateContext } from '../pattern/generate';
import type { Random } from '../pattern/random';
import { contentSlots, effectiveElement, resolve } from '../pattern/resolve';
import type { Pattern, Scope, XmlElementPattern } from '../pattern/types';
import { escapeAttribute, escapeText } from '../xml/serialize';

/**
 * An XML response body compiled once into a template: element names, namespace
 * declarations and which nodes exist are fixed at start-up; only what the core
 * generator draws at random (scalar values, repetition counts) is drawn per
 * request, in the same order and through the same functions (`generateText`,
 * `rng.int(1, 3)`). So a template gives byte for byte what `generateBody` gives
 * for the same random stream (a test checks this on every contract), at a
 * fraction of the cost: no pattern walk, no tree, no serialiser.
 *
 * Anything unusual (a very deep or recursive type, a text slot that is not a
 * scalar) makes `compileXmlTemplate` return undefined and the stub uses the
 * core generator for that scenario instead.
 */
export type XmlTemplate = (rng: Random) => string;

type Emit = (ctx: GenerateContext, out: string[]) => void;

/** Deeper than this is left to the core generator (its own depth rules then apply). */
const MAX_COMPILED_DEPTH = 20;
/** Compiled parts beyond this are left to the core generator too (nothing real comes near). */
const MAX_PARTS = 5_000;

class GiveUp extends Error {}

export function compileXmlTemplate(s: Scenario, row?: ExampleRow): XmlTemplate | undefined {
  if (!s.response.body) return undefined;
  const examples = row?.values;
  const compiler = new Compiler(s.scope, examples);
  let emit: Emit;
  try {
    const root = resolve(s.response.body, s.scope);
    if (root.kind !== 'xml') return undefined;
    emit = compiler.element(root, 0);
  } catch (e) {
    if (e instanceof GiveUp) return undefined;
    throw e;
  }
  const scope = s.scope;
  return (rng) => {
    const out: string[] = [];
    emit({ scope, rng, examples }, out);
    return out.join('');
  };
}

class Compiler {
  private parts = 0;

  constructor(private readonly scope: Scope, private readonly examples: ReadonlyMap<string, string> | undefined) {}

  /** Mirrors generateXml: how many times the node occurs, then the node itself. */
  element(p: XmlElementPattern, depth: number, root = true): Emit {
    if (depth > MAX_COMPILED_DEPTH || ++this.parts > MAX_PARTS) throw new GiveUp();
    const eff = effectiveElement(p, this.scope);
    const one = this.oneElement(eff, depth + 1);
    if (root || p.occurs === 'once') return one;
    const example = this.examples?.get(eff.local);
    if (p.occurs === 'optional') return example === '' ? () => {} : one;
    return (ctx, out) => {
      const n = ctx.rng.int(1, 3);
      for (let i = 0; i < n; i++) one(ctx, out);
    };
  }

  /** Mirrors generateOneElement and serializeXml. */
  private oneElement(p: XmlElementPattern, depth: number): Emit {
    const steps: (string | Emit)[] = [];
    let open = `<${p.name}`;
    for (const n of p.namespaces) open += ` ${n.name}="${escapeAttribute(n.value)}"`;
    steps.push(open);
    for (const a of p.attributes) {
      const example = this.examples?.get(a.local);
      if (a.optional && example === '') continue;
      steps.push(` ${a.name}="`);
      if (example !== undefined) steps.push(escapeAttribute(example));
      else steps.push(this.text(a.pattern, escapeAttribute));
      steps.push('"');
    }
    const children: (string | Emit)[] = [];
    for (const slot of contentSlots(p.content, this.scope)) {
      if (slot.kind === 'text') {
        const example = this.examples?.get(p.local);
        if (example !== undefined && example !== '') children.push(escapeText(example));
        else children.push(this.text(slot.pattern, escapeText));
        continue;
      }
      const asSlot: XmlElementPattern = { ...slot.pattern, occurs: slot.max === Infinity ? 'multiple' : slot.min === 0 ? 'optional' : 'once' };
      children.push(this.element(asSlot, depth, false));
    }
    const close = `</${p.name}>`;
    const head = merge(steps);
    const body = merge(children);
    // An element with no children at all serialises as `<x/>`; whether it has any may only be known per request.
    return (ctx, out) => {
      run(head, ctx, out);
      const mark = out.length;
      out.push('>');
      run(body, ctx, out);
      if (out.length === mark + 1 || isEmptyTail(out, mark + 1)) {
        out.length = mark;
        out.push('/>');
      } else out.push(close);
    };
  }

  /** A leaf value drawn by the core generator, exactly as generateOneElement draws it. */
  private text(pattern: Pattern, escape: (s: string) => string): Emit {
    return (ctx, out) => {
      out.push(escape(generateText(pattern, ctx)));
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

function run(steps: (string | Emit)[], ctx: GenerateContext, out: string[]): void {
  for (const s of steps) {
    if (typeof s === 'string') out.push(s);
    else s(ctx, out);
  }
}
