import { namedPlaces } from '../pattern/generate/places';
import { contentSlots, effectiveElement, resolve } from '../pattern/resolve';
import type { Pattern, Scope, XmlElementPattern } from '../pattern/types';
import { SOAP11_ENVELOPE, SOAP12_ENVELOPE } from './message';

/**
 * The Examples a request body is generated with, plus an empty cell (which
 * leaves an optional node out) for each optional SOAP header entry no column
 * names. A contract test sends an optional header (an impersonation, a scope,
 * a session) only when its Examples give it: sent with a made-up value, it
 * would change what a real service does, or be refused.
 */
export function withOptionalHeadersLeftOut(body: Pattern, scope: Scope, examples: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  const entries = optionalHeaderEntries(body, scope);
  if (entries.length === 0) return examples;
  // An empty cell gives nothing: it leaves the node it names out.
  const gives = (key: string) => (examples.get(key) ?? '') !== '';
  let out: Map<string, string> | undefined;
  for (const entry of entries) {
    if (gives(entry.local) || namedPlaces(entry, scope).some((place) => gives(place.key))) continue;
    out ??= new Map(examples);
    out.set(entry.local, '');
  }
  return out ?? examples;
}

/** The optional children of a SOAP envelope's Header. */
function optionalHeaderEntries(body: Pattern, scope: Scope): XmlElementPattern[] {
  return headerEntries(body, scope)
    .filter((e) => e.min === 0)
    .map((e) => e.pattern);
}

/** The local names of the Header children a contract's SOAP request names (the header blocks it understands). */
export function headerEntryNames(body: Pattern, scope: Scope): string[] {
  return headerEntries(body, scope).map((e) => e.pattern.local);
}

function headerEntries(body: Pattern, scope: Scope): { pattern: XmlElementPattern; min: number }[] {
  let envelope: Pattern;
  try {
    envelope = resolve(body, scope);
  } catch {
    return [];
  }
  if (envelope.kind !== 'xml' || envelope.local !== 'Envelope') return [];
  const soap = envelope.namespaces.some((n) => n.name === (envelope.prefix ? `xmlns:${envelope.prefix}` : 'xmlns') && (n.value === SOAP11_ENVELOPE || n.value === SOAP12_ENVELOPE));
  if (!soap) return [];
  const out: { pattern: XmlElementPattern; min: number }[] = [];
  for (const slot of contentSlots(effectiveElement(envelope, scope).content, scope)) {
    if (slot.kind !== 'element' || slot.pattern.local !== 'Header') continue;
    for (const entry of contentSlots(effectiveElement(slot.pattern, scope).content, scope)) {
      if (entry.kind === 'element') out.push({ pattern: entry.pattern, min: entry.min });
    }
  }
  return out;
}
