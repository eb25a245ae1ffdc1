import { unreachable } from '../../errors';
import { isBookkeepingAttribute, isNilAttribute, isSoapEnvelopeNamespace } from '../../xml/bookkeeping';
import type { XmlAttribute, XmlElement } from '../../xml/tree';
import { ENCODED_REFERENCE_LIMITS } from '../../limits';
import { inEncodedScope, xsi1999Null } from '../../xml/encoding-scope';
import { resolveEncodedReferences, type ReferenceProblem } from '../../xml/multi-ref';
import { ANY_NAME, cheapestAlignment, explainOrder } from './child-order';
import { append, type Mismatch, shown } from './mismatch';
import { alignChildren, flatLeaves } from './align';
import { contentSlots, effectiveElement, instanceElement, resolve, type NodeSlot, type Slot, type TextSlot } from '../resolve';
import { withBounds } from '../occurs';
import type { Pattern, Scope, XmlAttributePattern, XmlElementPattern, XmlWildcardPattern } from '../types';
import { describePattern } from '../describe';
import { matchFaultCode, SOAP11_ENVELOPE, SOAP12_ENVELOPE } from './soap-fault';

import { noteOpaqueRead, noteTextRead } from './probe';
import { matchText } from './value';

/** Matching XML documents; see match.ts. */
// ---------- XML ----------

/**
 * Matches a whole document: the root's name is part of the path. An rpc/encoded message's
 * multi-reference values (`href="#id0"` and the Body's `<multiRef id="id0">`) are read first
 * (xml/multi-ref.ts): each accessor is matched as the value it names.
 */
export function matchXml(pattern: Pattern, document: XmlElement, scope: Scope, limit = Infinity): Mismatch[] {
  const p = resolve(pattern, scope);
  if (p.kind !== 'xml') return [{ path: '', expected: describePattern(p), actual: `an XML document <${document.name}>` }];
  const { root: el, problems } = resolveEncodedReferences(document);
  if (problems.length > 0) return problems.slice(0, Math.max(1, limit)).map(referenceMismatch);
  const eff = effectiveElement(p, scope);
  if (eff.local !== el.local) return [{ path: el.local, expected: `node <${eff.local}>`, actual: `<${el.local}>` }];
  return matchNode(p, el, scope, el.local, { el }, limit);
}

/** A multi-reference value that cannot be read, as a mismatch at the accessor's path. */
function referenceMismatch(r: ReferenceProblem): Mismatch {
  const ref = r.reference ? `${r.reference.name}=${shown(r.reference.value, 60)}` : '';
  switch (r.kind) {
    case 'dangling':
      return { path: r.path, expected: `the element ${ref} refers to (a SOAP-encoded multi-reference value)`, actual: 'no element of the message has that id' };
    case 'cycle':
      return { path: r.path, expected: 'a value that does not contain itself', actual: `${ref}, which refers to an element this accessor is inside (a reference cycle)` };
    case 'ambiguous':
      return { path: r.path, expected: `one element with the id ${ref} refers to`, actual: 'several elements with that id' };
    case 'too-large':
      return {
        path: r.path,
        expected: `a value of at most ${ENCODED_REFERENCE_LIMITS.expandedElements} elements once its references are read`,
        actual: 'more (references to shared values multiply it): refused',
      };
    case 'too-deep':
      return {
        path: r.path,
        expected: `at most ${ENCODED_REFERENCE_LIMITS.depth} levels once references are read`,
        actual: `${ref ? `${ref}, ` : ''}nested deeper through references: refused`,
      };
    default:
      return unreachable(r.kind, 'reference problem');
  }
}

/**
 * An element against its pattern as written: of its declared type, or of the derived type its
 * `xsi:type` names (`specmatic_derived`); an abstract type must be named so.
 */
function matchNode(p: XmlElementPattern, el: XmlElement, scope: Scope, path: string, ns: NsScope, limit = Infinity): Mismatch[] {
  const xsiType = xsiTypeOf(el);
  const instance = instanceElement(p, xsiType, scope);
  if (instance !== 'abstract') return matchElement(instance, el, scope, path, ns, limit);
  const names = effectiveElement(p, scope).derived?.map((d) => d.xsiType) ?? [];
  const typeName = p.typeRef ? ` (${p.typeRef})` : '';
  return [
    {
      path,
      expected: `xsi:type naming a type derived from the abstract type${typeName}${names.length ? `: ${names.join(', ')}` : ''}`,
      actual: xsiType === undefined ? 'no xsi:type' : `xsi:type ${shown(xsiType)}`,
    },
  ];
}

/** The local name of an element's `xsi:type` (prefixes are not resolved, as elsewhere in matching). */
function xsiTypeOf(el: XmlElement): string | undefined {
  for (const a of el.attributes) {
    if (a.local === 'type' && a.prefix !== '' && a.prefix !== 'xmlns' && isBookkeepingAttribute(a)) return a.value.trim().slice(a.value.trim().indexOf(':') + 1);
  }
  return undefined;
}

function matchElement(p: XmlElementPattern, el: XmlElement, scope: Scope, path: string, ns: NsScope, limit = Infinity): Mismatch[] {
  const out: Mismatch[] = [];
  // Most elements have no attributes and expect none: no set is made for them.
  const nil = el.attributes.length > 0 || p.attributes.length > 0 ? matchAttributes(p, el, scope, path, out, ns) : false;
  if (nil) {
    // SOAP encoding lets any accessor be null (SOAP 1.1 section 5.1, 1.2 part 2 section 4.1.2), whatever the schema says of the type.
    if (!p.nillable && !inEncodedScope(ns)) out.push({ path, expected: 'a value', actual: 'xsi:nil="true" (the node is not nillable)' });
    return out;
  }

  const { textSlots, elementSlots } = splitSlots(contentSlots(p.content, scope));
  // One pass over the children for both: a 5 MB body has hundreds of thousands of elements.
  let text = '';
  let mixed = false;
  for (const c of el.children) {
    if (c.type === 'text') {
      text += c.value;
      mixed = true;
    }
  }
  let children = mixed ? el.children.filter((x): x is XmlElement => x.type === 'element') : (el.children as XmlElement[]);
  if (p.local === 'Header' && children.length > 0 && isSoapEnvelopeNamespace(namespaceOf(el, ns.up))) children = declaredHeaderBlocks(elementSlots, children);
  else if (p.local === 'Envelope' && children.length > 1 && isSoapEnvelopeNamespace(namespaceOf(el, ns.up))) children = withoutUndeclaredHeader(elementSlots, children, ns);
  if (p.anyOrder && children.length > 1) children = inDeclaredOrder(elementSlots, children);

  if (textSlots.length > 0) {
    const tp = textSlots[0].pattern;
    const fault = faultCodeVersion(el, ns);
    if (fault) {
      // Judged with the declarations in scope (the code's prefix), not by the text alone.
      noteOpaqueRead();
      append(
        out,
        matchFaultCode(fault, tp, text, scope, path, (prefix) => namespaceOf({ ...el, prefix }, ns.up)),
      );
    } else {
      const found = matchText(tp, text, scope, path);
      noteTextRead(text, tp, scope, found.length === 0);
      append(out, found);
    }
  } else if (text !== '') {
    out.push({ path, expected: elementSlots.length ? 'child nodes' : 'no content', actual: `text ${shown(text)}` });
  }
  // `(anything)` as an element's whole content accepts child nodes too (an xsd:any or anyType in an imported WSDL).
  if (elementSlots.length === 0 && textSlots.length === 1 && acceptsAnything(textSlots[0].pattern, scope)) return out;
  if (out.length < limit) append(out, matchChildren(elementSlots, children, scope, path, ns, limit - out.length));
  return out;
}

/** Checks the attributes into `out`; true when the element is xsi:nil="true". */
function matchAttributes(p: XmlElementPattern, el: XmlElement, scope: Scope, path: string, out: Mismatch[], ns: NsScope): boolean {
  let nil = false;
  const seen = new Set<string>();
  for (const a of el.attributes) {
    if (a.name === 'xmlns' || a.prefix === 'xmlns') continue;
    if (isBookkeepingAttribute(a)) {
      if (isNilAttribute(a)) nil = true;
      continue;
    }
    // Read only in an encoded message, where old SOAP stacks write it; elsewhere it is an attribute like any other.
    const null1999 = a.local === 'null' ? xsi1999Null(a, ns) : undefined;
    if (null1999 !== undefined && inEncodedScope(ns)) {
      if (null1999) nil = true;
      continue;
    }
    seen.add(a.local);
  }
  for (const ap of p.attributes) {
    const actual = attributeFor(el, ap);
    const at = `${path}/@${ap.local}`;
    if (!actual) {
      if (!ap.optional) out.push({ path: at, expected: `attribute ${ap.local} (${describePattern(ap.pattern)})`, actual: 'no such attribute' });
      continue;
    }
    seen.delete(ap.local);
    append(out, matchText(ap.pattern, actual.value, scope, at));
  }
  // xs:anyAttribute: attributes beyond the declared ones are accepted (their namespace is not checked).
  if (p.anyAttribute !== undefined || seen.size === 0) return nil;
  const frame = isSoapFrame(p, el, ns);
  for (const extra of seen) {
    // An unqualified Id too: XML-DSig references the signed Body by it (xml-crypto's default, and so the soap package's WSSecurityCert).
    if (frame && (extra === 'Id' || el.attributes.some((a) => a.local === extra && a.prefix !== '' && a.prefix !== 'xmlns'))) continue;
    out.push({ path: `${path}/@${extra}`, expected: 'no such attribute', actual: `unexpected attribute ${extra}` });
  }
  return nil;
}

/**
 * The attribute `ap` stands for. Prefixes are not resolved, but an unqualified pattern takes an
 * unqualified attribute first and never a bookkeeping one: NetSuite's RecordRef carries both
 * `xsi:type="core:RecordRef"` and its own `type="customer"`.
 */
function attributeFor(el: XmlElement, ap: XmlAttributePattern): XmlAttribute | undefined {
  const qualified = ap.name !== ap.local;
  let fallback: XmlAttribute | undefined;
  for (const a of el.attributes) {
    if (a.local !== ap.local || a.prefix === 'xmlns') continue;
    if ((a.prefix !== '') === qualified) return a;
    if (!isBookkeepingAttribute(a)) fallback ??= a;
  }
  return fallback;
}

/**
 * The SOAP Envelope, Header and Body take attributes of other namespaces (the SOAP 1.1 and 1.2 envelope
 * schemas' anyAttribute): WS-Security signs the Body through `wsu:Id`, WS-Addressing and others add theirs,
 * whatever the WSDL says. Unqualified attributes are still reported, but for `Id` (a signature's reference to the Body).
 */
function isSoapFrame(p: XmlElementPattern, el: XmlElement, ns: NsScope): boolean {
  return (p.local === 'Body' || p.local === 'Header' || p.local === 'Envelope') && isSoapEnvelopeNamespace(namespaceOf(el, ns.up));
}

/**
 * The children of an element whose nodes may come in any order (`specmatic_order="any"`), put in
 * the order of its slots (stable; names it does not declare last, where the report finds them), so
 * the one alignment matches them. Content with choices or wildcards is left as it came.
 */
function inDeclaredOrder(slots: readonly NodeSlot[], children: XmlElement[]): XmlElement[] {
  const rank = new Map<string, number>();
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i];
    if (s.kind !== 'element' || s.pattern.anyName) return children;
    if (!rank.has(s.pattern.local)) rank.set(s.pattern.local, i);
  }
  const at = (c: XmlElement) => rank.get(c.local) ?? slots.length;
  return children
    .map((c, k) => ({ c, k }))
    .sort((a, b) => at(a.c) - at(b.c) || a.k - b.k)
    .map((x) => x.c);
}

/** Slots split by kind, once per slot list (lists are cached and shared by contentSlots): matching asks for every element. */
const splitCache = new WeakMap<readonly Slot[], { textSlots: TextSlot[]; elementSlots: NodeSlot[] }>();

function splitSlots(slots: readonly Slot[]): { textSlots: TextSlot[]; elementSlots: NodeSlot[] } {
  let split = splitCache.get(slots);
  if (!split) {
    split = { textSlots: slots.filter((s): s is TextSlot => s.kind === 'text'), elementSlots: slots.filter((s): s is NodeSlot => s.kind !== 'text') };
    splitCache.set(slots, split);
  }
  return split;
}

/**
 * A SOAP Header's blocks that the contract names; the others are left out of the match.
 * Header blocks are SOAP's extension point (SOAP 1.1 section 4.2): WCF and CXF add
 * WS-Addressing (`wsa:Action`, `wsa:RelatesTo`) and WS-Security blocks to messages whatever
 * the WSDL says, often with mustUnderstand, which the receiving SOAP stack honours (it knows
 * its modules), not the contract. A block the contract names is still checked in full.
 */
function declaredHeaderBlocks(slots: readonly NodeSlot[], children: XmlElement[]): XmlElement[] {
  const leaves = flatLeaves(slots);
  if (leaves.some((l) => l.kind === 'any')) return children;
  const named = new Set(leaves.map((l) => (l.kind === 'element' ? l.pattern.local : '')));
  return children.every((c) => named.has(c.local)) ? children : children.filter((c) => named.has(c.local));
}

/**
 * An Envelope whose contract has no Header takes a message with one as it takes a message with an
 * empty one: an empty Header in a contract is optional and its undeclared blocks are ignored
 * (makeEmptyHeaderOptional, declaredHeaderBlocks), and stacks differ on writing one (suds and
 * SOAP::Lite always write `<Header/>`, WCF adds WS-Addressing blocks to every message). A contract
 * recorded from calls without a Header would otherwise refuse such a client.
 */
function withoutUndeclaredHeader(slots: readonly NodeSlot[], children: XmlElement[], ns: NsScope): XmlElement[] {
  const header = children.findIndex((c) => c.local === 'Header' && isSoapEnvelopeNamespace(namespaceOf(c, ns)));
  if (header < 0 || flatLeaves(slots).some((l) => l.kind === 'any' || (l.kind === 'element' && l.pattern.local === 'Header'))) return children;
  return children.filter((_, i) => i !== header);
}

function acceptsAnything(p: Pattern, scope: Scope): boolean {
  const r = resolve(p, scope);
  return r.kind === 'scalar' && r.type === 'anything';
}

/**
 * Children must fill the slots in order. An alignment is looked for first
 * (align.ts: by local names, wildcards by namespace, choices one option per
 * occurrence); when none exists child-order.ts names each node that is
 * missing, misplaced or unexpected, once, against the content's leaves laid
 * out in a row.
 */
function matchChildren(slots: NodeSlot[], children: XmlElement[], scope: Scope, path: string, ns: NsScope, limit = Infinity): Mismatch[] {
  const nsOf = (child: XmlElement) => namespaceOf(child, ns);
  let alignment = alignChildren(slots, children, nsOf);
  // SOAP 1.1 (5.1): inside SOAP-encoding scope an accessor whose value is null may be left out (suds
  // leaves them out). Looked at only when the children do not fit as declared: no cost otherwise.
  if (!alignment && inEncodedScope(ns)) {
    alignment = alignChildren(
      slots.map((s) => (s.kind === 'element' && s.min > 0 ? { ...s, min: 0 } : s)),
      children,
      nsOf,
    );
  }
  const out: Mismatch[] = [];
  if (alignment) {
    const { leaves, assigned, repeated } = alignment;
    const plain = plainLeaves(leaves, scope);
    // How many children each leaf has taken so far, the index of a repeated node in its path: only repeated leaves need it (made on first use).
    let taken: number[] | undefined;
    for (let k = 0; k < children.length && out.length < limit; k++) {
      const a = assigned[k];
      const leaf = leaves[a];
      const child = children[k];
      const index = repeated[a] ? (taken ??= new Array<number>(leaves.length).fill(0))[a]++ : 0;
      // A wildcard's element is checked only against a declaration the contract knows for it (strict and lax).
      const declared = leaf.kind === 'any' ? declarationFor(leaf.wildcard, child) : leaf.pattern;
      if (!declared) continue;
      // A text-only element: its text is its whole match. Checked without the path, which is made only for a report.
      const tp = leaf.kind === 'any' ? undefined : plain[a];
      // A SOAP fault's code is judged by SOAP's rules too (soap-fault.ts): never by its text alone.
      const text = tp && child.attributes.length === 0 && child.local !== 'faultcode' && child.local !== 'Value' ? onlyText(child) : undefined;
      if (text !== undefined) {
        const fits = matchText(tp!, text, scope).length === 0;
        noteTextRead(text, tp!, scope, fits);
        if (fits) continue;
      }
      const at = `${path}/${child.local}${repeated[a] ? `[${index}]` : ''}`;
      append(out, matchNode(declared, child, scope, at, { el: child, up: ns }, limit - out.length));
    }
    return out;
  }
  if (slots.length > 0) {
    out.push({ path, expected: `child nodes ${contentWords(slots)} in this order`, actual: `(${namesOf(children) || 'none'})` });
  }
  const leaves = flatLeaves(slots);
  const order = leaves.map((s) => ({ local: s.kind === 'element' && !s.pattern.anyName ? s.pattern.local : ANY_NAME, min: s.min, max: s.max }));
  const cheapest = cheapestAlignment(order, children);
  // Too many to search for the nodes out of place: the order line above is the report.
  if (!cheapest) return out;
  for (const step of explainOrder(order, children, cheapest, path, limit)) {
    if (out.length >= limit) break;
    if (step.kind === 'report') out.push(step.mismatch);
    else {
      const leaf = leaves[step.slot];
      const child = children[step.child];
      if (leaf.kind === 'element') append(out, matchNode(leaf.pattern, child, scope, step.path, { el: child, up: ns }, limit - out.length));
    }
  }
  return out;
}

/** The declaration a wildcard's element is checked against: one of the wildcard's elements of its name, unless processContents is skip. */
function declarationFor(w: XmlWildcardPattern, child: XmlElement): XmlElementPattern | undefined {
  if (w.processContents === 'skip' || !w.elements) return undefined;
  return w.elements.find((e) => e.local === child.local);
}

/** Per list of leaves (lists are cached by contentSlots; a list from a choice is new each time and simply not found). */
const plainCache = new WeakMap<readonly unknown[], (Pattern | undefined)[]>();

/**
 * For each leaf, the pattern of its text when it is an element that takes no attributes and
 * holds text only (most of a SOAP body's elements): matching such an element against a child
 * without attributes and child nodes is matching its text, nothing else.
 */
function plainLeaves(leaves: readonly { kind: string; pattern?: XmlElementPattern }[], scope: Scope): (Pattern | undefined)[] {
  let plain = plainCache.get(leaves);
  if (!plain) {
    plain = leaves.map((l) => {
      const p = l.kind === 'element' ? l.pattern! : undefined;
      if (!p || p.typeRef || p.abstract || p.attributes.length > 0) return undefined;
      const { textSlots, elementSlots } = splitSlots(contentSlots(p.content, scope));
      return elementSlots.length === 0 && textSlots.length === 1 ? textSlots[0].pattern : undefined;
    });
    plainCache.set(leaves, plain);
  }
  return plain;
}

/** An element's text when it has no child elements; undefined when it has some. */
function onlyText(el: XmlElement): string | undefined {
  let text = '';
  for (const c of el.children) {
    if (c.type !== 'text') return undefined;
    text += c.value;
  }
  return text;
}

/** A content model as reports write it: `(a, b*, one of (c | d, e), any*)`. */
export function contentWords(slots: readonly NodeSlot[]): string {
  const word = (s: NodeSlot): string => {
    if (s.kind === 'element') return withBounds(s.pattern.local, s);
    // A wildcard limited to some namespaces says which: "(any, any)" would not tell a schema from the data after it.
    if (s.kind === 'any') return withBounds(s.wildcard.namespace === '##any' ? 'any' : `any ${s.wildcard.namespace}`, s);
    return withBounds(`one of (${s.options.map((o) => o.map(word).join(', ') || 'nothing').join(' | ')})`, s);
  };
  return `(${slots.map(word).join(', ')})`;
}

/** The children's names for a report: the first twenty, then how many more. */
function namesOf(children: XmlElement[]): string {
  const names = children.slice(0, 20).map((c) => c.local);
  if (children.length > 20) names.push(`… ${children.length - 20} more`);
  return names.join(', ');
}

/** `faultcode` in a SOAP 1.1 Fault, `Code/Value` in a SOAP 1.2 Fault: a code judged by SOAP's rules (soap-fault.ts). */
function faultCodeVersion(el: XmlElement, ns: NsScope): '1.1' | '1.2' | undefined {
  const parent = ns.up;
  if (!parent) return undefined;
  if (el.local === 'faultcode') return parent.el.local === 'Fault' && namespaceOf(parent.el, parent.up) === SOAP11_ENVELOPE ? '1.1' : undefined;
  if (el.local !== 'Value' || parent.el.local !== 'Code' || parent.up?.el.local !== 'Fault') return undefined;
  // Code/Value is SOAP 1.2's alone: in a SOAP 1.1 envelope (the `soap` package sends it so) it is judged as 1.2's, and refused.
  const uri = namespaceOf(el, parent);
  return uri === SOAP12_ENVELOPE || uri === SOAP11_ENVELOPE ? '1.2' : undefined;
}

/** The elements from a child up to the root, for the namespace declarations in scope. */
interface NsScope {
  el: XmlElement;
  up?: NsScope;
}

/** An element's namespace URI from the declarations in scope; undefined when its prefix is declared nowhere in the document. */
function namespaceOf(child: XmlElement, up: NsScope | undefined): string | undefined {
  const want = child.prefix ? `xmlns:${child.prefix}` : 'xmlns';
  for (let at: NsScope | undefined = { el: child, up }; at; at = at.up) {
    for (const a of at.el.attributes) if (a.name === want) return a.value;
  }
  return child.prefix ? undefined : '';
}

export type { Slot };
