import { AccordError, Stop, untilStopped } from '../errors';
import type { XmlAttribute, XmlElement, XmlNode } from './tree';

/**
 * A fast path for the XML accord meets on every stub request and every test
 * response: plain elements, attributes, text, comments and an XML declaration,
 * with ASCII names and the five predefined entities. It gives exactly the tree
 * the saxes path gives (parse.ts), or undefined for anything else: a DOCTYPE,
 * CDATA, a processing instruction, a character reference, a non-ASCII name, a
 * carriage return, anything malformed. parseXml then parses the text again
 * with saxes, which decides and words every error. So this never accepts what
 * saxes rejects (a differential test with mutated documents checks that) and
 * only has to be right about what it accepts.
 *
 * One exception: a limit (elements, depth, attributes) reached in a document
 * read well-formed so far is refused here, with saxes' words and place. Parsing
 * 200,000 elements again with saxes only to reach the same refusal cost a
 * hostile 4 MB body two parses instead of one.
 *
 * Worth it: saxes checks every character of every name against the XML name
 * tables and tracks the position of each; this scans with indexOf and
 * character codes, about twice as fast on a SOAP request (1.7 µs against
 * 3.4 µs), and parsing was half of the stub's own work per request.
 */
export interface FastLimits {
  maxDepth: number;
  maxAttributes: number;
  maxElements: number;
}

/** Characters this path leaves to saxes wherever they appear (saxes refuses most, normalises \r). */

const AWKWARD_CHARS = /[\0-\x08\x0B\x0C\x0D\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;
/** Markup it leaves to saxes: CDATA ends, DOCTYPE and CDATA, processing instructions, character references (two regexps: one with both alternations is twice as slow). */
const AWKWARD_MARKUP = /]]>|<!(?!--)|<\?(?!xml[ \t\n])|&#/;
const DECLARATION =
  /<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*(["'])1\.0\1(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*(["'])(?:yes|no)\3)?[ \t\n]*\?>/y;
const ONLY_SPACE = /^[ \t\n]*$/;
const ENTITY = /&(lt|gt|amp|quot|apos);/g;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Anything the fast path does not handle: the full parser reads the document instead. */
const BAIL = new Stop('not a plain document');

export function fastParseXml(text: string, limits: FastLimits): XmlElement | undefined {
  if (awkward(text)) return undefined;
  return untilStopped(BAIL, () => {
    const scan = new Scan(text, limits);
    scan.step(text.length);
    return scan.finish();
  });
}

/**
 * fastParseXml in slices of about `slice` characters with `pause()` awaited between them, so
 * that a 10 MB body does not hold the event loop (the stub keeps answering other clients).
 */
export async function fastParseXmlInSlices(text: string, limits: FastLimits, slice: number, pause: () => Promise<void>): Promise<XmlElement | undefined> {
  // The markup test needs a few characters of context: slices overlap by that much.
  for (let at = 0; at < text.length; at += slice) {
    if (awkward(text.slice(Math.max(0, at - 8), at + slice))) return undefined;
    if (at + slice < text.length) await pause();
  }
  try {
    const scan = new Scan(text, limits);
    for (;;) {
      const done = scan.step(scan.position + slice);
      if (done) return scan.finish();
      await pause();
    }
  } catch (e) {
    // untilStopped, across the awaits.
    if (e !== BAIL) throw e;
    return undefined;
  }
}

function awkward(text: string): boolean {
  return AWKWARD_CHARS.test(text) || AWKWARD_MARKUP.test(text);
}

class Scan {
  private pos = 0;
  /** Line at the last position asked for, counted forward only (positions only grow). */
  private line = 1;
  /** The first newline not yet counted; -1 once there are no more. Kept, so that a document without newlines is not searched to its end for every element. */
  private nextNewline: number | undefined;
  private readonly stack: XmlElement[] = [];
  private readonly names = new Names();
  private root: XmlElement | undefined;
  private elements = 0;

  constructor(
    private readonly text: string,
    private readonly limits: FastLimits,
  ) {
    if (text.startsWith('<?xml')) {
      DECLARATION.lastIndex = 0;
      if (!DECLARATION.test(text)) throw BAIL;
      this.pos = DECLARATION.lastIndex;
    }
  }

  get position(): number {
    return this.pos;
  }

  /** Reads markup until past `until` or the end; true at the end of the text. */
  step(until: number): boolean {
    const t = this.text;
    const stack = this.stack;
    while (this.pos < until) {
      const lt = t.indexOf('<', this.pos);
      const end = lt < 0 ? t.length : lt;
      if (end > this.pos) this.addText(t.slice(this.pos, end), stack);
      if (lt < 0) {
        this.pos = t.length;
        return true;
      }
      const next = t.charCodeAt(lt + 1);
      if (next === 0x21 /* ! */) {
        this.comment(lt);
      } else if (next === 0x2f /* / */) {
        // A close tag must name the open element: compared in place, no name is read.
        const open = stack.pop();
        if (!open || !t.startsWith(open.name, lt + 2)) throw BAIL;
        this.pos = lt + 2 + open.name.length;
        this.skipSpace();
        if (t.charCodeAt(this.pos) !== 0x3e /* > */) throw BAIL;
        this.pos++;
      } else {
        if (this.root && stack.length === 0) throw BAIL; // a second root
        const el = this.openTag(lt);
        // Checked as saxes does: once the whole tag is read, elements first.
        if (++this.elements > this.limits.maxElements) this.refuse(`more than ${this.limits.maxElements} elements`);
        if (stack.length >= this.limits.maxDepth) this.refuse(`elements nested deeper than ${this.limits.maxDepth} levels`);
        if (stack.length > 0) addChild(stack[stack.length - 1], el);
        else this.root = el;
        if (!this.selfClosing) stack.push(el);
      }
    }
    return this.pos >= t.length;
  }

  finish(): XmlElement {
    if (!this.root || this.stack.length > 0) throw BAIL;
    return this.root;
  }

  /** Text between markup: outside the root only XML whitespace; inside, trimmed and joined as parse.ts does. */
  private addText(raw: string, stack: XmlElement[]): void {
    if (stack.length === 0) {
      if (!ONLY_SPACE.test(raw)) throw BAIL;
      return;
    }
    const value = decode(raw).trim();
    if (value === '') return;
    const parent = stack[stack.length - 1];
    const last = parent.children[parent.children.length - 1];
    if (last && last.type === 'text') last.value += value;
    else addChild(parent, { type: 'text', value });
  }

  private comment(lt: number): void {
    // AWKWARD already sent every `<!` that does not open a comment to saxes.
    const close = this.text.indexOf('-->', lt + 4);
    if (close < 0) throw BAIL;
    const body = this.text.slice(lt + 4, close);
    if (body.includes('--') || body.endsWith('-')) throw BAIL;
    this.pos = close + 3;
  }

  /** Whether the tag openTag read last was `<x/>`. */
  private selfClosing = false;

  private openTag(lt: number): XmlElement {
    const t = this.text;
    const name = this.names.intern(this.name(lt + 1));
    const attributes: XmlAttribute[] = [];
    let seen: Set<string> | undefined;
    for (;;) {
      const before = this.pos;
      this.skipSpace();
      const c = t.charCodeAt(this.pos);
      if (c === 0x3e /* > */ || c === 0x2f /* / */) {
        this.selfClosing = c === 0x2f;
        if (this.selfClosing) {
          if (t.charCodeAt(this.pos + 1) !== 0x3e) throw BAIL;
          this.pos++;
        }
        const line = this.lineOf(this.pos);
        this.pos++;
        return { type: 'element', name: name.name, prefix: name.prefix, local: name.local, attributes, children: [], line };
      }
      // An attribute needs whitespace before it.
      if (this.pos === before) throw BAIL;
      const attr = this.name(this.pos);
      this.skipSpace();
      if (t.charCodeAt(this.pos) !== 0x3d /* = */) throw BAIL;
      this.pos++;
      this.skipSpace();
      const quote = t[this.pos];
      if (quote !== '"' && quote !== "'") throw BAIL;
      const close = t.indexOf(quote, this.pos + 1);
      if (close < 0) throw BAIL;
      const raw = t.slice(this.pos + 1, close);
      // '<' is malformed; tabs and newlines are normalised to spaces by XML: left to saxes.
      if (raw.includes('<') || raw.includes('\t') || raw.includes('\n')) throw BAIL;
      // Duplicates: a scan for the usual handful, a set past that (256 attributes scanned pairwise would be quadratic).
      if (seen) {
        if (seen.has(attr)) throw BAIL;
        seen.add(attr);
      } else {
        for (const a of attributes) if (a.name === attr) throw BAIL;
        if (attributes.length >= 8) seen = new Set([...attributes.map((a) => a.name), attr]);
      }
      const colon = attr.indexOf(':');
      attributes.push({ name: attr, prefix: colon < 0 ? '' : attr.slice(0, colon), local: colon < 0 ? attr : attr.slice(colon + 1), value: decode(raw) });
      this.pos = close + 1;
      // saxes counts each attribute as its value closes.
      if (attributes.length > this.limits.maxAttributes) this.refuse(`element <${name.name}> has more than ${this.limits.maxAttributes} attributes`);
    }
  }

  /** A limit reached at this.pos (just past the markup that reached it): saxes' message and place. */
  private refuse(message: string): never {
    const line = this.lineOf(this.pos);
    const column = this.pos - (this.text.lastIndexOf('\n', this.pos - 1) + 1);
    throw new AccordError('ACCORD_ERR_XML', message, { line, column });
  }

  /** An ASCII name: a letter or _, then letters, digits, _ . -, with at most one colon inside. */
  private name(at: number): string {
    const t = this.text;
    let i = at;
    let colon = false;
    if (!isNameStart(t.charCodeAt(i))) throw BAIL;
    for (i++; ; i++) {
      const c = t.charCodeAt(i);
      if (isNameChar(c)) continue;
      if (c !== 0x3a /* : */ || colon || !isNameStart(t.charCodeAt(i + 1))) break;
      colon = true;
    }
    this.pos = i;
    return t.slice(at, i);
  }

  private skipSpace(): void {
    const t = this.text;
    let i = this.pos;
    for (let c = t.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x09; c = t.charCodeAt(++i));
    this.pos = i;
  }

  private lineOf(pos: number): number {
    const t = this.text;
    let next = this.nextNewline ?? t.indexOf('\n');
    while (next >= 0 && next < pos) {
      this.line++;
      next = t.indexOf('\n', next + 1);
    }
    this.nextNewline = next;
    return this.line;
  }
}

/**
 * A document's element names, each split once: a body of 100,000 `<pet:line>` elements keeps
 * one copy of "pet:line", "pet" and "line", not 100,000 (about 90 bytes an element). Bounded:
 * past 1,000 distinct names (no real schema has more) names are no longer kept.
 */
class Names {
  private readonly known = new Map<string, { name: string; prefix: string; local: string }>();

  intern(name: string): { name: string; prefix: string; local: string } {
    const hit = this.known.get(name);
    if (hit) return hit;
    const colon = name.indexOf(':');
    const split = { name, prefix: colon < 0 ? '' : name.slice(0, colon), local: colon < 0 ? name : name.slice(colon + 1) };
    if (this.known.size < 1000) this.known.set(name, split);
    return split;
  }
}

/**
 * Adds a child node. An element's first child gets an array of one: `push` onto an empty array
 * reserves room for 17, and most elements are leaves holding one text (about 130 bytes each).
 */
function addChild(parent: XmlElement, node: XmlNode): void {
  if (parent.children.length === 0) parent.children = [node];
  else parent.children.push(node);
}

function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}

function isNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d || c === 0x2e;
}

/** The five predefined entities; any other `&` (character references never get this far) is left to saxes. */
function decode(raw: string): string {
  if (!raw.includes('&')) return raw;
  if (raw.replace(ENTITY, '').includes('&')) throw BAIL;
  return raw.replace(ENTITY, (_, name: string) => ENTITIES[name]);
}
