import { AccordError } from '../../errors';
import type { ParsedBody } from '../../http/body';
import { contentSlots, effectiveElement, resolve } from '../../pattern/resolve';
import type { Pattern, Scope, XmlElementPattern } from '../../pattern/types';
import type { XmlElement } from '../../xml/tree';

/**
 * A SOAP service imported from a WSDL is one scenario per operation, all on
 * `POST /ws`, so a request would be fully matched against every operation in
 * turn. Instead each XML scenario keeps the nodes every matching body must
 * have (`Envelope` > `Body` > `getPetRequest`, by local name, a few levels
 * deep), and a request without them skips the full match: a look-up of a few
 * names instead of a walk of the whole pattern. It only ever skips scenarios
 * that could not match; the 400 report still compares every scenario in full.
 */
export interface RequiredNode {
  local: string;
  children: RequiredNode[];
}

/** Levels below the root that are checked: enough to reach a SOAP operation element. */
const MAX_LEVELS = 4;

export function requiredNodes(body: Pattern | undefined, scope: Scope): RequiredNode | undefined {
  if (!body) return undefined;
  try {
    const root = resolve(body, scope);
    return root.kind === 'xml' ? required(effectiveElement(root, scope), scope, 0) : undefined;
  } catch (e) {
    if (e instanceof AccordError) return undefined;
    throw e;
  }
}

function required(p: XmlElementPattern, scope: Scope, level: number): RequiredNode {
  const node: RequiredNode = { local: p.local, children: [] };
  // A nillable node may come as xsi:nil="true" with no children at all; one of a derived type (xsi:type) with other children;
  // one that starts SOAP-encoding scope (an rpc/encoded operation) may leave out an accessor whose value is null (SOAP 1.1, 5.1).
  if (level >= MAX_LEVELS || p.nillable || p.derived || p.abstract || p.attributes.some((a) => a.local === 'encodingStyle')) return node;
  for (const slot of contentSlots(p.content, scope)) {
    if (slot.kind === 'element' && slot.min >= 1 && !slot.pattern.anyName) node.children.push(required(effectiveElement(slot.pattern, scope), scope, level + 1));
  }
  return node;
}

/** False only when the body is XML and lacks a node the scenario requires. */
export function mayMatch(req: RequiredNode | undefined, body: ParsedBody): boolean {
  if (!req) return true;
  const xml = body.asXml();
  if (xml instanceof AccordError) return true;
  return has(req, xml);
}

function has(req: RequiredNode, el: XmlElement): boolean {
  if (el.local !== req.local) return false;
  // An rpc/encoded accessor may hold its value elsewhere (href="#id0") or be null in any case: the full match decides.
  if (el.attributes.length > 0 && el.attributes.some((a) => a.local === 'href' || a.local === 'ref' || a.local === 'nil' || a.local === 'null')) return true;
  for (const child of req.children) {
    let found = false;
    for (const c of el.children) {
      if (c.type === 'element' && has(child, c)) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}
