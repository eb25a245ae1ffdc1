import { Stop, untilStopped } from '../errors';
import { ENCODED_REFERENCE_LIMITS } from '../limits';
import { isSoapEnvelopeNamespace } from './bookkeeping';
import { ownEncoding, prefixNamespace, SOAP11_ENCODING, SOAP12_ENCODING, type ElementChain } from './encoding-scope';
import type { XmlAttribute, XmlElement, XmlNode } from './tree';

/*
 * SOAP encoding's multi-reference values (SOAP 1.1 section 5.4.1; SOAP 1.2 part 2, 4.1.1): an
 * accessor with no content of its own names, by `href="#id0"` (1.2: `enc:ref="id0"`), the element
 * holding its value (`id="id0"`, 1.2 `enc:id`). Axis 1 writes every struct and array of an
 * rpc/encoded message so, as independent `<multiRef id="id0" soapenc:root="0">` elements after the
 * operation wrapper in the Body; .NET does the same with elements named after their type.
 *
 * The document is read as the tree those references stand for: each accessor takes the referenced
 * element's attributes and content under its own name, the independent elements leave the Body, and
 * SOAP encoding's own attributes (`id`, `soapenc:root`, `enc:id`, `enc:nodeType`) are dropped. A
 * pure function of the parsed tree, read before matching; only inside SOAP encoding's scope
 * (encoding-scope.ts), so that a literal message's `href` stays data.
 *
 * Hostile documents: a value shared by many references is built once and shared, so the tree
 * holds no more objects than the document; the size of the tree it stands for is counted (and
 * bounded: ENCODED_REFERENCE_LIMITS), so that a DAG of references doubling at each level (a
 * "billion laughs" in references) is refused instead of matched for ever. A cycle and a reference
 * to no element are refused too, each named by the accessor's path.
 */

export type ReferenceProblemKind = 'dangling' | 'cycle' | 'ambiguous' | 'too-large' | 'too-deep';

/** Why the references of a document could not be read: where (the accessor's path), what it named, and how it went wrong. */
export interface ReferenceProblem {
  kind: ReferenceProblemKind;
  path: string;
  /** The reference's attribute (`href="#id0"`, `enc:ref="id0"`); undefined for a value too large or deep as a whole. */
  reference?: { name: string; value: string };
}

export interface ResolvedReferences {
  /** The document with its references read; the document itself when it has none (or when `problems` is not empty). */
  root: XmlElement;
  problems: ReferenceProblem[];
}

const { expandedElements: MAX_ELEMENTS, depth: MAX_DEPTH } = ENCODED_REFERENCE_LIMITS;
/** Problems gathered before giving up: a report shows a few; a document of 100,000 dangling references is told by its first ones. */
const MAX_PROBLEMS = 10;

const resolved = new WeakMap<XmlElement, ResolvedReferences>();

/** The tree a parsed document stands for once its SOAP-encoded references are read (computed once per document). */
export function resolveEncodedReferences(root: XmlElement): ResolvedReferences {
  // Most messages are literal: no encodingStyle anywhere, so no encoded scope and nothing to read. A walk that
  // makes nothing, and no cache entry: a WeakMap entry per request made the collector a quarter of the stub's work.
  if (!hasEncodingStyle(root)) return { root, problems: [] };
  let r = resolved.get(root);
  if (!r) {
    r = resolveOnce(root);
    resolved.set(root, r);
  }
  return r;
}

function resolveOnce(root: XmlElement): ResolvedReferences {
  const survey = new Survey();
  survey.walk({ el: root }, false);
  if (survey.referenced.size === 0 && !survey.dropsAttributes) return { root, problems: [] };
  const builder = new Builder(survey);
  const built = untilStopped(GIVE_UP, () => builder.element({ el: root }, false, { el: root }, 1));
  return !built || builder.problems.length > 0 ? { root, problems: builder.problems } : { root: built.el, problems: [] };
}

/**
 * Large documents already found literal. Each route a request is compared with asks again, and a walk
 * of a 5 MB body's 90,000 elements costs ~10 ms; a small document is walked again instead (an entry per
 * request is what made the collector busy).
 */
const literal = new WeakSet<XmlElement>();
const REMEMBERED_FROM = 1_000;

function hasEncodingStyle(root: XmlElement): boolean {
  if (literal.has(root)) return false;
  const stack: XmlElement[] = [root];
  let elements = 0;
  while (stack.length > 0) {
    const el = stack.pop()!;
    elements++;
    for (const a of el.attributes) if (a.local === 'encodingStyle') return true;
    for (const c of el.children) if (c.type === 'element') stack.push(c);
  }
  if (elements >= REMEMBERED_FROM) literal.add(root);
  return false;
}

interface Target {
  chain: ElementChain;
  /** SOAP encoding in scope at the target (its own encodingStyle or one above it). */
  encoded: boolean;
  /** Another element has the same id: a reference to it is ambiguous. */
  twice: boolean;
}

/** The first pass: which ids are defined (in encoded scope), which are referred to, and whether anything is to be done. */
class Survey {
  readonly targets = new Map<string, Target>();
  readonly referenced = new Set<string>();
  dropsAttributes = false;

  walk(chain: ElementChain, inherited: boolean): void {
    const el = chain.el;
    const encoded = ownEncoding(chain) ?? inherited;
    for (const a of el.attributes) {
      if (a.prefix === '') {
        if (a.local === 'id' && encoded) this.define(a.value.trim(), chain, encoded);
        else if (a.local === 'href' && a.value.startsWith('#')) this.referenced.add(a.value.slice(1).trim());
        continue;
      }
      const ns = encodingAttribute(a, chain);
      if (ns === SOAP12_ENCODING) {
        if (a.local === 'ref') this.referenced.add(a.value.trim());
        else if (a.local === 'id' && encoded) this.define(a.value.trim(), chain, encoded);
        if (encoded) this.dropsAttributes = true;
      } else if (ns === SOAP11_ENCODING && encoded) this.dropsAttributes = true;
    }
    for (const c of el.children) if (c.type === 'element') this.walk({ el: c, up: chain }, encoded);
  }

  private define(id: string, chain: ElementChain, encoded: boolean): void {
    const known = this.targets.get(id);
    if (known) known.twice = true;
    else this.targets.set(id, { chain, encoded, twice: false });
  }
}

/** SOAP encoding's own attributes: 1.1's `root`, 1.2's `id`, `ref` and `nodeType`; the namespace when `a` is one of them. */
function encodingAttribute(a: XmlAttribute, chain: ElementChain): string | undefined {
  if (a.prefix === 'xmlns') return undefined;
  if (a.local !== 'root' && a.local !== 'id' && a.local !== 'ref' && a.local !== 'nodeType') return undefined;
  const ns = prefixNamespace(a.prefix, chain);
  if (ns === SOAP12_ENCODING && a.local !== 'root') return ns;
  if (ns === SOAP11_ENCODING && a.local === 'root') return ns;
  return undefined;
}

interface Built {
  el: XmlElement;
  /** Elements of the tree it stands for (saturating just above the limit). */
  size: number;
  /** Levels of that tree, counting the element itself. */
  height: number;
}

/** Where an element is, for a report: made into text only when there is something to report. */
interface PathNode {
  el: XmlElement;
  parent?: XmlElement;
  up?: PathNode;
}

/** Thrown by the builder once a report has enough problems (or one it cannot go past); resolveOnce catches it. */
const GIVE_UP = new Stop('enough problems to report');

/** The second pass: the tree with each reference read, built once per element (copied only where something changes). */
class Builder {
  readonly problems: ReferenceProblem[] = [];
  private readonly memo = new Map<XmlElement, Built>();
  private readonly building = new Set<XmlElement>();
  /** The elements a reference names: built once, wherever they are first reached. */
  private readonly shared = new Set<XmlElement>();

  constructor(private readonly survey: Survey) {
    for (const id of survey.referenced) {
      const t = survey.targets.get(id);
      if (t) this.shared.add(t.chain.el);
    }
  }

  element(chain: ElementChain, inherited: boolean, at: PathNode, depth: number): Built {
    if (!this.shared.has(chain.el)) return this.content(chain, inherited, at, depth);
    const known = this.memo.get(chain.el);
    if (known) return known;
    this.building.add(chain.el);
    const built = this.content(chain, inherited, at, depth);
    this.building.delete(chain.el);
    this.memo.set(chain.el, built);
    return built;
  }

  private content(chain: ElementChain, inherited: boolean, at: PathNode, depth: number): Built {
    const el = chain.el;
    if (depth > MAX_DEPTH) this.fail('too-deep', at, undefined, true);
    const encoded = ownEncoding(chain) ?? inherited;
    const ref = referenceOf(el, chain);
    if (ref) {
      const target = this.survey.targets.get(ref.id);
      if (target && (encoded || target.encoded)) return this.follow(chain, ref.attribute, target, at, depth);
      if (!target && encoded) {
        this.fail('dangling', at, ref.attribute);
        return { el, size: 1, height: 1 };
      }
    }
    const body = isBody(chain);
    // Copied from the first child that changes; until then the element's own list stands.
    let children: XmlNode[] | undefined;
    let size = 1;
    let height = 0;
    for (let i = 0; i < el.children.length; i++) {
      const c = el.children[i];
      if (c.type !== 'element') {
        children?.push(c);
        continue;
      }
      const cChain = { el: c, up: chain };
      if (body && this.independent(cChain, encoded)) {
        children ??= el.children.slice(0, i);
        continue;
      }
      const b = this.element(cChain, encoded, { el: c, parent: el, up: at }, depth + 1);
      if (b.el !== c) children ??= el.children.slice(0, i);
      children?.push(b.el);
      size = Math.min(size + b.size, MAX_ELEMENTS + 1);
      height = Math.max(height, b.height);
    }
    if (size > MAX_ELEMENTS) this.fail('too-large', at, undefined, true);
    const attributes = encoded ? this.withoutEncodingAttributes(el, chain) : el.attributes;
    const changed = children !== undefined || attributes !== el.attributes;
    return { el: changed ? { ...el, attributes, children: children ?? el.children } : el, size, height: height + 1 };
  }

  /** An accessor whose value is the element `target`: that element's attributes and content under the accessor's name. */
  private follow(chain: ElementChain, attribute: XmlAttribute, target: Target, at: PathNode, depth: number): Built {
    if (this.building.has(target.chain.el)) {
      this.fail('cycle', at, attribute);
      return { el: chain.el, size: 1, height: 1 };
    }
    if (target.twice) {
      this.fail('ambiguous', at, attribute);
      return { el: chain.el, size: 1, height: 1 };
    }
    const b = this.element(target.chain, target.encoded, at, depth);
    if (depth - 1 + b.height > MAX_DEPTH) this.fail('too-deep', at, attribute, true);
    const accessor = chain.el;
    const attributes = accessor.attributes.filter((a) => a !== attribute);
    const names = new Set(attributes.map((a) => a.name));
    for (const a of b.el.attributes) if (!names.has(a.name) && names.add(a.name)) attributes.push(a);
    // The value's prefixes were declared around it (the Envelope, the multiRef): declared again on the accessor where they differ.
    for (let up = target.chain.up; up; up = up.up) {
      for (const a of up.el.attributes) {
        if (!a.name.startsWith('xmlns') || names.has(a.name)) continue;
        const prefix = a.name === 'xmlns' ? '' : a.name.slice(6);
        names.add(a.name);
        if (prefix !== accessor.prefix && prefixNamespace(prefix, chain) !== a.value) attributes.push(a);
      }
    }
    return { el: { ...accessor, attributes, children: b.el.children }, size: b.size, height: b.height };
  }

  /** A Body child that is not a serialization root: an independent element some reference names, or one marked `soapenc:root="0"`. */
  private independent(chain: ElementChain, inherited: boolean): boolean {
    if (!(ownEncoding(chain) ?? inherited)) return false;
    for (const a of chain.el.attributes) {
      if (a.prefix === '' && a.local === 'id' && this.survey.referenced.has(a.value.trim())) return true;
      if (a.local === 'root' && encodingAttribute(a, chain) === SOAP11_ENCODING && (a.value.trim() === '0' || a.value.trim() === 'false')) return true;
    }
    return false;
  }

  /** Without SOAP encoding's own attributes: a referenced `id`, `soapenc:root`, 1.2's `enc:id`, `enc:ref` and `enc:nodeType`. */
  private withoutEncodingAttributes(el: XmlElement, chain: ElementChain): XmlAttribute[] {
    const drop = (a: XmlAttribute) => (a.prefix === '' ? a.local === 'id' && this.survey.referenced.has(a.value.trim()) : encodingAttribute(a, chain) !== undefined);
    return el.attributes.some(drop) ? el.attributes.filter((a) => !drop(a)) : el.attributes;
  }

  private fail(kind: ReferenceProblemKind, at: PathNode, attribute: XmlAttribute | undefined, stop = false): void {
    this.problems.push({ kind, path: pathText(at), ...(attribute ? { reference: { name: attribute.name, value: attribute.value } } : {}) });
    if (stop || this.problems.length >= MAX_PROBLEMS) throw GIVE_UP;
  }
}

/** The reference an accessor carries: an unqualified `href="#id"` (SOAP 1.1) or `enc:ref="id"` (SOAP 1.2). */
function referenceOf(el: XmlElement, chain: ElementChain): { id: string; attribute: XmlAttribute } | undefined {
  for (const a of el.attributes) {
    if (a.prefix === '' && a.local === 'href' && a.value.startsWith('#')) return { id: a.value.slice(1).trim(), attribute: a };
    if (a.local === 'ref' && a.prefix !== '' && encodingAttribute(a, chain) === SOAP12_ENCODING) return { id: a.value.trim(), attribute: a };
  }
  return undefined;
}

/** The SOAP Body: a child of the root, in a SOAP envelope namespace. */
function isBody(chain: ElementChain): boolean {
  return chain.el.local === 'Body' && chain.up !== undefined && chain.up.up === undefined && isSoapEnvelopeNamespace(prefixNamespace(chain.el.prefix, chain));
}

/** `Envelope/Body/getQuoteResponse/items/item[1]`: local names, with an index where siblings share a name (as matching reports write them). */
function pathText(at: PathNode): string {
  const parts: string[] = [];
  for (let n: PathNode | undefined = at; n; n = n.up) {
    let part = n.el.local;
    if (n.parent) {
      let index = 0;
      let same = 0;
      for (const c of n.parent.children) {
        if (c.type !== 'element' || c.local !== n.el.local) continue;
        if (c === n.el) index = same;
        same++;
      }
      if (same > 1) part += `[${index}]`;
    }
    parts.push(part);
  }
  return parts.reverse().join('/');
}
