import type { ParsedBody } from '../../http/body';
import { STUB_LIMITS } from '../../limits';
import { matchText } from '../../pattern/match/index';
import type { TextRead } from '../../pattern/match/probe';
import type { Pattern, Scope } from '../../pattern/types';

/**
 * Requests of one shape (issue 39): a load test, a poller or a consumer's suite sends the same
 * envelope again and again with a new id, a new date, a new name in it. The memo (memo.ts) knows
 * only requests it has seen byte for byte; this knows shapes. A request's shape is its text with
 * the text of each element taken out: every tag (names, attributes, namespace declarations), the
 * white space between tags and the XML declaration stay, each element's text is a slot.
 *
 * Why dispatch's choice carries over to another request of the same shape: the matcher reads a
 * body's element texts only through checks of a text against a pattern (pattern/match/probe.ts
 * notes each, with its verdict); everything else it reads (names, attributes, namespaces, order,
 * counts, which texts are empty) is in the shape. Two requests of one shape whose texts give every
 * noted check the same verdict are therefore walked alike, check for check, to the same choice.
 * So a request of a known shape is checked against the notes of the first request of that shape
 * (each slot's text against the patterns its element was checked against, for the same verdict)
 * instead of being parsed and matched, and falls back to dispatch when any verdict differs.
 *
 * What would break that is kept out, and such a request is dispatched in full as before: entity
 * and character references, CDATA, comments, DOCTYPE, processing instructions, carriage returns
 * and characters XML refuses (the parser decides those), an element with more than one run of text
 * (the matcher joins them), a check the probe cannot note (a SOAP fault code, whose prefix is read
 * against the declarations in scope; a body matched as text, form fields, multipart parts), a
 * noted text that is no slot's, and more than MAX_SLOTS slots.
 */

/** A request's text split at its element texts: `key` is the text with each slot's text taken out. */
export interface Shape {
  readonly key: string;
  /** Each slot's text, trimmed as the parser trims it (never empty: white space between tags is part of the key). */
  readonly slots: readonly string[];
}

/** What a request of the shape was checked against, slot by slot, and the choice it led to. */
export interface ShapeNotes<C> {
  readonly choice: C;
  readonly checks: readonly (readonly Check[])[];
}

interface Check {
  readonly pattern: Pattern;
  readonly scope: Scope;
  readonly fits: boolean;
}

/** More slots than this: not worth the notes (checking each again costs what matching would). */
const MAX_SLOTS = 64;

/** Characters the parser leaves to saxes or refuses (fast-parse.ts), and references: a text with one has no shape. */
const UNSHAPED = /[&\0-\x08\x0B-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** The request's shape, or undefined when it has none (see above). */
export function shapeOf(text: string): Shape | undefined {
  // Markup by indexOf: a character class and three searches cost a third of one regular expression with alternatives.
  if (UNSHAPED.test(text) || text.includes('<!') || text.includes(']]>') || text.indexOf('<?', 1) >= 0) return undefined;
  let key = '';
  const slots: string[] = [];
  /** Where the literal not yet copied to the key starts. */
  let from = 0;
  let pos = 0;
  /** Per open element, whether it already has a run of text. */
  const open: boolean[] = [];
  const ends = new TagEnds(text);
  for (;;) {
    const lt = text.indexOf('<', pos);
    const end = lt < 0 ? text.length : lt;
    if (end > pos) {
      const value = text.slice(pos, end).trim();
      if (value !== '') {
        const depth = open.length;
        // Text outside the root, or a second run in one element: left to dispatch.
        if (depth === 0 || open[depth - 1] || slots.length >= MAX_SLOTS) return undefined;
        open[depth - 1] = true;
        key += text.slice(from, pos) + '\0';
        from = end;
        slots.push(value);
      }
    }
    if (lt < 0) break;
    if (text.charCodeAt(lt + 1) === 0x3f /* ? : the XML declaration, at 0 */) {
      const close = text.indexOf('?>', lt + 2);
      if (close < 0) return undefined;
      pos = close + 2;
      continue;
    }
    const gt = ends.after(lt + 1);
    if (gt < 0) return undefined;
    if (text.charCodeAt(lt + 1) === 0x2f /* / */) {
      if (open.length === 0) return undefined;
      open.pop();
    } else if (text.charCodeAt(gt - 1) !== 0x2f /* not <x/> */) open.push(false);
    pos = gt + 1;
  }
  if (slots.length === 0) return undefined;
  return { key: key + text.slice(from), slots };
}

/** The last body asked about and its shape: the expectations' index and the memo ask about the same request in turn. */
let lastBody: ParsedBody | undefined;
let lastShape: Shape | undefined;

/** shapeOf the body's text, worked out once for the body asked about last; undefined for a body that does not start with `<` or is over STUB_LIMITS.memoBodyChars. */
export function shapeOfBody(body: ParsedBody): Shape | undefined {
  if (body === lastBody) return lastShape;
  // Bodies the memo keeps, no longer: a shape is worth noting only for a request that may come again.
  const shape = body.text.charCodeAt(0) === 0x3c /* < */ && body.text.length <= STUB_LIMITS.memoBodyChars ? shapeOf(body.text) : undefined;
  lastBody = body;
  lastShape = shape;
  return shape;
}

/**
 * The `>` that ends each tag, past quoted attribute values (which may hold `>`), by indexOf rather than
 * character by character; the next quote of each kind is remembered, so no part of the text is searched twice.
 */
class TagEnds {
  private dq = -2;
  private sq = -2;

  constructor(private readonly text: string) {}

  /** The `>` ending the tag that starts before `at`; -1 for none. */
  after(at: number): number {
    const text = this.text;
    let from = at;
    for (;;) {
      const gt = text.indexOf('>', from);
      if (gt < 0) return -1;
      if (this.dq !== -1 && this.dq < from) this.dq = text.indexOf('"', from);
      if (this.sq !== -1 && this.sq < from) this.sq = text.indexOf("'", from);
      const q = this.dq < 0 || (this.sq >= 0 && this.sq < this.dq) ? this.sq : this.dq;
      if (q < 0 || q > gt) return gt;
      const close = text.indexOf(text[q], q + 1);
      if (close < 0) return -1;
      from = close + 1;
    }
  }
}

/**
 * The notes of a dispatch of a request of this shape, from what its probe read; undefined when a
 * read cannot be tied to a slot (then requests of the shape are dispatched in full).
 */
export function notesOf<C>(shape: Shape, reads: readonly TextRead[], choice: C): ShapeNotes<C> | undefined {
  const checks: Check[][] = shape.slots.map(() => []);
  for (const r of reads) {
    // An element with no text in the request has none in any request of its shape.
    if (r.text === '') continue;
    let tied = false;
    for (let i = 0; i < shape.slots.length; i++) {
      if (shape.slots[i] !== r.text) continue;
      tied = true;
      // Every slot with that text is checked: one of them is the element's, and more checks never admit more.
      const list = checks[i];
      if (!list.some((c) => c.pattern === r.pattern && c.scope === r.scope && c.fits === r.fits)) list.push({ pattern: r.pattern, scope: r.scope, fits: r.fits });
    }
    if (!tied) return undefined;
  }
  return { choice, checks };
}

/** Whether a request of the shape gives every noted check the verdict the noted request gave. */
export function fitsNotes(notes: ShapeNotes<unknown>, slots: readonly string[]): boolean {
  const { checks } = notes;
  for (let i = 0; i < checks.length; i++) {
    const list = checks[i];
    for (let k = 0; k < list.length; k++) {
      const c = list[k];
      if ((matchText(c.pattern, slots[i], c.scope).length === 0) !== c.fits) return false;
    }
  }
  return true;
}
