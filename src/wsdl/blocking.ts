/**
 * XSD `block` and `blockDefault`: which derived types an instance may name with xsi:type, and which
 * substitution-group members may stand for their head (XSD 1.0 part 1, 3.3.1, 3.3.6 and 3.4.1).
 */
import type { Element } from '@xmldom/xmldom';
import { MAX_TYPE_NESTING } from '../limits';
import { words } from '../pattern/wildcard';
import { attr, kid, NS, resolveQName } from './dom';
import type { EmitContext } from './emit-context';
import { derivationStep, owningSchema, type Decl } from './xsd';

/**
 * What a declaration's `block` refuses (`extension`, `restriction`, `substitution`, `#all`), or its
 * schema's `blockDefault` when it has none: on a complex type, the derived types an instance may not
 * name with xsi:type; on an element, also those at that element, and its substitution-group members.
 */
export function blockedBy(el: Element): string[] {
  return words(attr(el, 'block') ?? attr(owningSchema(el) ?? el, 'blockDefault') ?? '');
}

export function blocks(blocked: readonly string[], what: string): boolean {
  return blocked.includes('#all') || blocked.includes(what);
}

/**
 * Whether substitution-group member `m` may stand where `head` is: not when the head blocks
 * substitution, nor when m's type derives from the head's by a method the head or the head's type
 * blocks (Substitution Group OK). A chain that cannot be followed (a base not found) is let through.
 */
export function substitutable(e: EmitContext, head: Decl, m: Decl): boolean {
  const headTypeName = attr(head.el, 'type');
  const headType = headTypeName ? e.index.find('type', resolveQName(head.el, headTypeName)) : undefined;
  const blocked = [...blockedBy(head.el), ...(headType ? blockedBy(headType.el) : [])];
  if (blocks(blocked, 'substitution')) return false;
  if (!headType || (!blocks(blocked, 'extension') && !blocks(blocked, 'restriction'))) return true;
  const typeName = attr(m.el, 'type');
  let cur = typeName ? e.index.find('type', resolveQName(m.el, typeName))?.el : kid(m.el, NS.xsd, 'complexType');
  for (let depth = 0; cur && cur !== headType.el && depth <= MAX_TYPE_NESTING; depth++) {
    const step = derivationStep(cur);
    if (!step) return true;
    if (blocks(blocked, step.method)) return false;
    cur = e.index.find('type', step.base)?.el;
  }
  return true;
}
