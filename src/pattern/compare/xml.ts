import type { CompareContext } from './context';
import { compareSequences, expandContent, sequenceWords, type Content } from './sequence';
import { compareChoices, hasChoice, modelOf } from './choice';
import { describePattern } from '../describe';
import { effectiveElement } from '../resolve';
import type { Pattern, XmlElementPattern } from '../types';

/*
 * XML elements: two elements at the same place, compared on their name,
 * nillability, attributes (added, removed, made optional, their text values)
 * and content: text against text, or child sequences through
 * compare-sequence.ts, each pair of children that stand for each other then
 * compared in turn back through the context's `element`. A pair of named
 * types seen again is skipped (the context's memo), so recursive types end.
 */

const EMPTY_TEXT: Pattern = { kind: 'scalar', type: 'empty' };

/** Two XML elements at the same place (their names were matched by the caller). */
export function compareElements(c: CompareContext, aIn: XmlElementPattern, aName: string | undefined, bIn: XmlElementPattern, bName: string | undefined, path: string): void {
  const aKey = aIn.typeRef ?? aName;
  const bKey = bIn.typeRef ?? bName;
  if (c.visited('xml', aKey, bKey)) return;
  const a = effectiveElement(aIn, c.aScope);
  const b = effectiveElement(bIn, c.bScope);
  if (a.local !== b.local) {
    c.add({ kind: 'type', target: 'value', path, a: `node <${a.local}>`, b: `node <${b.local}>`, narrower: false });
    return;
  }
  if (b.nillable && !a.nillable) c.add({ kind: 'nillable', target: 'node', path, name: a.local, a: 'not nillable', b: 'nillable (xsi:nil="true")' });
  // specmatic_name="any" stands on the node as written (a SOAP-encoded array's member), not on its type.
  if (bIn.anyName && !aIn.anyName) c.add({ kind: 'name', target: 'node', path, name: a.local, a: `named <${a.local}>`, b: 'under any name' });
  compareDerived(c, aIn, a, bIn, b, path);

  const aAttrs = new Map(a.attributes.map((x) => [x.local, x]));
  const bAttrs = new Map(b.attributes.map((x) => [x.local, x]));
  for (const ba of b.attributes) {
    const at = `${path}/@${ba.local}`;
    const aa = aAttrs.get(ba.local);
    if (!aa) {
      c.add({ kind: 'unexpected', target: 'node', path: at, name: `@${ba.local}`, a: 'no such attribute', b: `attribute ${ba.local} ${describePattern(ba.pattern)}` });
      continue;
    }
    if (ba.optional && !aa.optional) c.add({ kind: 'optional', target: 'node', path: at, name: `@${ba.local}`, a: 'required', b: 'optional' });
    c.value(aa.pattern, ba.pattern, at, 'text');
  }
  for (const aa of a.attributes) {
    if (aa.optional || bAttrs.has(aa.local)) continue;
    c.add({
      kind: 'missing',
      target: 'node',
      path: `${path}/@${aa.local}`,
      name: `@${aa.local}`,
      a: `attribute ${aa.local} ${describePattern(aa.pattern)}`,
      b: 'no such attribute',
    });
  }

  const ac = expandContent(a.content, c.aScope);
  const bc = expandContent(b.content, c.bScope);
  if (ac.text || bc.text) {
    const aText = ac.text ?? (ac.slots.length === 0 ? EMPTY_TEXT : undefined);
    const bText = bc.text ?? (bc.slots.length === 0 ? EMPTY_TEXT : undefined);
    if (aText && bText) c.value(aText, bText, path, 'text');
    else c.add({ kind: 'type', target: 'value', path, a: contentWords(ac), b: contentWords(bc), narrower: false });
    if (!aText || !bText) return;
  }
  // specmatic_order="any": b accepting its nodes in any order accepts orders a does not; with either in any order, the orders written say nothing.
  if (b.anyOrder && !a.anyOrder)
    c.add({ kind: 'order', target: 'node', path, name: a.local, a: `${sequenceWords(ac.slots)} in this order`, b: `${sequenceWords(bc.slots)} in any order` });
  const unordered = a.anyOrder || b.anyOrder;
  let found = 0;
  const pairs = compareSequences(ac.slots, bc.slots, path, (d) => {
    if (unordered && d.kind === 'order') return;
    found++;
    c.add(d);
  });
  // Names and bounds agree: with a choice on either side, "exactly one option" may still differ.
  if (found === 0 && (hasChoice(a.content) || hasChoice(b.content))) compareChoices(modelOf(a.content, c.aScope), modelOf(b.content, c.bScope), path, (d) => c.add(d));
  // Then each pair of children that stand for each other.
  for (const { a: ap, b: bp, path: at } of pairs) c.element(ap.pattern, ap.name, bp.pattern, bp.name, at);
}

/**
 * What an instance may be at this place: the declared type itself (unless abstract) and each
 * derived type `specmatic_derived` lists, by local name ('' for the declared type).
 */
function instanceTypes(e: XmlElementPattern): Map<string, string> {
  const out = new Map<string, string>();
  if (!e.abstract) out.set('', 'the declared type (no xsi:type)');
  for (const d of e.derived ?? []) out.set(d.local, `xsi:type ${d.xsiType}`);
  return out;
}

/**
 * Derived types (xsi:type): one B may carry that A does not list is a difference (a response that
 * may name a new derived type, a request type that no longer takes one); a derived type both list
 * is compared like any element, at `path[xsi:type=Name]`.
 */
function compareDerived(c: CompareContext, aIn: XmlElementPattern, a: XmlElementPattern, bIn: XmlElementPattern, b: XmlElementPattern, path: string): void {
  if (!a.derived && !b.derived && !a.abstract && !b.abstract) return;
  const aTypes = instanceTypes(a);
  const bTypes = instanceTypes(b);
  const aWords = [...aTypes.values()].join(', ') || 'no instance';
  for (const [local, words] of bTypes) {
    if (!aTypes.has(local)) c.add({ kind: 'derived', target: 'node', path, name: local || a.local, a: aWords, b: words });
  }
  for (const bd of b.derived ?? []) {
    const ad = a.derived?.find((d) => d.local === bd.local);
    if (!ad) continue;
    // As an instance naming it stands (resolve.ts derivedElement): the element with the derived type's attributes and content.
    const as = (e: XmlElementPattern, type: string): XmlElementPattern => ({
      ...e,
      ...(e.typeRef ? {} : { attributes: [] }),
      typeRef: type,
      derived: undefined,
      abstract: undefined,
    });
    c.element(as(aIn, ad.type), undefined, as(bIn, bd.type), undefined, `${path}[xsi:type=${bd.local}]`);
  }
}

function contentWords(content: Content): string {
  if (content.text) return describePattern(content.text);
  if (content.slots.length === 0) return 'no content';
  return `child nodes ${sequenceWords(content.slots)}`;
}
