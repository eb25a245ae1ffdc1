import { unreachable } from '../../errors';
import { MAX_TYPE_NESTING } from '../../limits';
import { effectiveElement, contentSlots, resolve, type ChoiceSlot, type Slot } from '../resolve';
import type { Pattern, ResolvedPattern, Scope, XmlElementPattern } from '../types';

/**
 * The places of a body an Examples column can name, as the generator uses
 * them (generate.ts): an XML element's text by the element's local name, an
 * attribute by its local name, a JSON value by its key, and a `(name:type)`
 * lookup by its name. `form` says how a cell becomes a value there: as text
 * (XML) or converted to the JSON type ("10" is 10 for a (number) key).
 */
export interface Place {
  key: string;
  pattern: Pattern;
  /** Where, for messages: `Envelope/Body/getPetRequest/id`, `pet.id`. */
  path: string;
  form: 'text' | 'json';
}

export function namedPlaces(body: Pattern, scope: Scope): Place[] {
  const out: Place[] = [];
  // Each pattern object is walked once: recursive types end, shared types are not walked again.
  const seen = new Set<Pattern>();

  const json = (p: Pattern, path: string, depth: number): void => {
    if (depth > MAX_TYPE_NESTING || seen.has(p)) return;
    const r = safeResolve(p, scope);
    if (!r) return;
    // Before p is marked: XML written straight into a body resolves to itself, and xml() marks it.
    if (r.kind === 'xml') return xml(r, '', depth + 1);
    seen.add(p);
    if (r !== p && seen.has(r)) return;
    seen.add(r);
    switch (r.kind) {
      case 'optional':
      case 'list':
        return json(r.inner, path, depth + 1);
      case 'lookup':
        out.push({ key: r.key, pattern: r.inner, path, form: 'json' });
        return json(r.inner, path, depth + 1);
      case 'object':
        for (const f of r.fields) {
          const at = path ? `${path}.${f.key}` : f.key;
          out.push({ key: f.key, pattern: f.pattern, path: at, form: 'json' });
          json(f.pattern, at, depth + 1);
        }
        return;
      case 'array':
        for (const item of r.items) json(item, `${path}[]`, depth + 1);
        return;
      case 'dictionary':
        return json(r.value, `${path}.*`, depth + 1);
      case 'scalar':
      case 'text-list':
      case 'union':
      case 'literal':
      case 'enum':
        return;
      default:
        return unreachable(r, 'pattern kind');
    }
  };

  const xml = (p: XmlElementPattern, parent: string, depth: number): void => {
    if (depth > MAX_TYPE_NESTING || seen.has(p)) return;
    seen.add(p);
    let eff: XmlElementPattern;
    try {
      eff = effectiveElement(p, scope);
    } catch {
      return; // an unusable specmatic_type is reported where the contract is read
    }
    const here = parent ? `${parent}/${eff.local}` : eff.local;
    for (const a of eff.attributes) out.push({ key: a.local, pattern: a.pattern, path: `${here}/@${a.local}`, form: 'text' });
    let slots;
    try {
      slots = contentSlots(eff.content, scope);
    } catch {
      return;
    }
    for (const slot of flatSlots(slots)) {
      if (slot.kind === 'element') {
        xml(slot.pattern, here, depth + 1);
        continue;
      }
      if (slot.kind === 'any') continue;
      out.push({ key: eff.local, pattern: slot.pattern, path: here, form: 'text' });
      const r = safeResolve(slot.pattern, scope);
      if (r?.kind === 'lookup') out.push({ key: r.key, pattern: r.inner, path: here, form: 'text' });
    }
  };

  json(body, '', 0);
  return out;
}

function safeResolve(p: Pattern, scope: Scope): ResolvedPattern | undefined {
  try {
    return resolve(p, scope);
  } catch {
    return undefined; // a self-referring type is reported where the contract is read
  }
}

/** A choice's options in a row: every node of every option is a place a column may name. */
function flatSlots(slots: readonly Slot[]): Exclude<Slot, ChoiceSlot>[] {
  return slots.flatMap((s) => (s.kind === 'choice' ? s.options.flatMap((o) => flatSlots(o)) : [s]));
}
