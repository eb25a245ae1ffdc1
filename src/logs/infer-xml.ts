import { MAX_ALIGN_CELLS } from '../limits';
import { Stop } from '../errors';
import type { XmlElement, XmlNode } from '../xml/tree';
import { isNamespaceDeclaration, textOf } from '../xml/tree';
import { isBookkeepingAttribute, isNilAttribute } from '../xml/bookkeeping';
import { classifyText, type TextType, widen } from './scalar';

/**
 * What many logged instances of one element have in common: its attributes,
 * its text type and its children as an ordered list of slots. Built one
 * instance at a time, so a log of any length costs the size of its shapes.
 */
export interface ElementShape {
  name: string;
  prefix: string;
  local: string;
  namespaces: { name: string; value: string }[];
  attributes: AttributeShape[];
  /** Widened type of the non-empty texts seen; undefined when never any text. */
  text?: TextType;
  /** Instances (not nil) with non-empty text. */
  textSeen: number;
  slots: Slot[];
  /** Instances merged that were not xsi:nil. */
  count: number;
  /** Instances that were xsi:nil="true". */
  nil: number;
  /**
   * `faultcode` and `Value` (a SOAP 1.2 fault's `Code/Value`): the first few distinct codes as sent, so that
   * a code SOAP's rules do not know (pysimplesoap's unqualified `Server.OrderNotFound`) is recorded as it was.
   */
  codes?: string[];
}

/** Distinct fault codes kept per shape (and characters of each): enough to name what a service sends, bounded for a hostile log. */
const MAX_CODES = 8;
const MAX_CODE_CHARS = 200;

export interface AttributeShape {
  name: string;
  local: string;
  type: TextType;
  seen: number;
  /**
   * A protocol attribute (`encodingStyle`, `xsi:type`, `arrayType`, `mustUnderstand`…): its value
   * as sent while every instance sent the same one, `null` once two differed. Such a value says how
   * to read the message, so a contract keeps it literal rather than as a made-up `(string)`.
   */
  literal?: string | null;
}

/** One place among an element's children: a run of same-named siblings. */
export interface Slot {
  local: string;
  shape: ElementShape;
  /** Parent instances that had this slot filled. */
  seen: number;
  /** Some parent had more than one node here in a row. */
  multiple: boolean;
}

/** Distinct nodes an import may create across all its shapes; hostile logs of ever-new names stop here. */
export interface ShapeBudget {
  left: number;
  readonly limit: number;
  /** Thrown when `left` runs out, and caught by whoever made the budget. */
  readonly spent: Stop;
}

export function shapeBudget(limit: number): ShapeBudget {
  return { left: limit, limit, spent: new Stop(`more than ${limit} distinct nodes`) };
}

export function newShape(el: XmlElement, budget?: ShapeBudget): ElementShape {
  if (budget && --budget.left < 0) throw budget.spent;
  return { name: el.name, prefix: el.prefix, local: el.local, namespaces: [], attributes: [], textSeen: 0, slots: [], count: 0, nil: 0 };
}

/** `alwaysAlign`: skip the fast path for children in the shape's order (the tests compare the two). */
export function mergeElement(shape: ElementShape | undefined, el: XmlElement, budget?: ShapeBudget, alwaysAlign = false): ElementShape {
  const s = shape ?? newShape(el, budget);
  let nil = false;
  for (const a of el.attributes) {
    if (isNamespaceDeclaration(a)) {
      if (!s.namespaces.some((n) => n.name === a.name)) s.namespaces.push({ name: a.name, value: a.value });
      continue;
    }
    if (isNilAttribute(a)) {
      nil = true;
      continue;
    }
    const protocol = isBookkeepingAttribute(a);
    // Schema locations point at files of the sender's; xsi:nil="false" says nothing.
    if (protocol && (a.local === 'schemaLocation' || a.local === 'noNamespaceSchemaLocation' || a.local === 'nil')) continue;
    const known = s.attributes.find((x) => x.local === a.local && (x.literal !== undefined) === protocol);
    if (protocol) {
      if (known) {
        known.seen++;
        if (known.literal !== a.value) known.literal = null;
      } else s.attributes.push({ name: a.name, local: a.local, type: 'string', seen: 1, literal: a.value });
      continue;
    }
    const type = a.value === '' ? 'string' : classifyText(a.value);
    if (known) {
      known.type = widen(known.type, type);
      known.seen++;
    } else s.attributes.push({ name: a.name, local: a.local, type, seen: 1 });
  }
  if (nil) {
    s.nil++;
    return s;
  }
  s.count++;
  const text = textOf(el);
  if (text !== '') {
    // Once a string, always a string (widen): the text need not be classified again.
    s.text = s.text === 'string' ? 'string' : widen(s.text, classifyText(text));
    s.textSeen++;
    if (el.local === 'faultcode' || el.local === 'Value') {
      const code = text.trim();
      s.codes ??= [];
      if (code.length <= MAX_CODE_CHARS && s.codes.length < MAX_CODES && !s.codes.includes(code)) s.codes.push(code);
    }
  }
  if (!alwaysAlign && sameSequence(s.slots, el.children)) fillInOrder(s.slots, el.children, budget);
  else mergeChildren(s, runsOf(el), budget, alwaysAlign);
  return s;
}

/**
 * Does this instance have the shape's children in the shape's order, one run per slot? Most logged calls
 * of one operation do, and then the alignment below pairs run k with slot k: nothing to align.
 */
function sameSequence(slots: Slot[], children: XmlNode[]): boolean {
  let k = -1;
  let prev: string | undefined;
  for (const c of children) {
    if (c.type !== 'element' || c.local === prev) continue;
    if (++k >= slots.length || slots[k].local !== c.local) return false;
    prev = c.local;
  }
  return k === slots.length - 1;
}

/** fillSlot for run k into slot k, without building the runs (what mergeChildren does when the names are the same). */
function fillInOrder(slots: Slot[], children: XmlNode[], budget: ShapeBudget | undefined): void {
  let k = -1;
  let prev: string | undefined;
  for (const c of children) {
    if (c.type !== 'element') continue;
    if (c.local === prev) slots[k].multiple = true;
    else {
      slots[++k].seen++;
      prev = c.local;
    }
    slots[k].shape = mergeElement(slots[k].shape, c, budget);
  }
}

interface Run {
  local: string;
  items: XmlElement[];
}

function runsOf(el: XmlElement): Run[] {
  const runs: Run[] = [];
  for (const c of el.children) {
    if (c.type !== 'element') continue;
    const last = runs[runs.length - 1];
    if (last && last.local === c.local) last.items.push(c);
    else runs.push({ local: c.local, items: [c] });
  }
  return runs;
}

function fillSlot(slot: Slot, run: Run, budget: ShapeBudget | undefined, alwaysAlign: boolean): void {
  slot.seen++;
  if (run.items.length > 1) slot.multiple = true;
  for (const item of run.items) slot.shape = mergeElement(slot.shape, item, budget, alwaysAlign);
}

function slotFor(run: Run, budget: ShapeBudget | undefined, alwaysAlign: boolean): Slot {
  const slot: Slot = { local: run.local, shape: newShape(run.items[0], budget), seen: 0, multiple: false };
  fillSlot(slot, run, budget, alwaysAlign);
  return slot;
}

/** Aligns this instance's runs with the slots so far (longest common subsequence by name), keeping order. */
function mergeChildren(s: ElementShape, runs: Run[], budget: ShapeBudget | undefined, alwaysAlign: boolean): void {
  const slots = s.slots;
  if (slots.length === 0) {
    s.slots = runs.map((r) => slotFor(r, budget, alwaysAlign));
    return;
  }
  const pairs = slots.length * runs.length > MAX_ALIGN_CELLS ? greedyPairs(slots, runs) : lcsPairs(slots, runs);
  const out: Slot[] = [];
  let i = 0;
  let j = 0;
  for (const [pi, pj] of [...pairs, [slots.length, runs.length] as [number, number]]) {
    while (i < pi) out.push(slots[i++]);
    while (j < pj) out.push(slotFor(runs[j++], budget, alwaysAlign));
    if (pi < slots.length && pj < runs.length) {
      fillSlot(slots[pi], runs[pj], budget, alwaysAlign);
      out.push(slots[pi]);
      i = pi + 1;
      j = pj + 1;
    }
  }
  s.slots = out;
}

function lcsPairs(slots: Slot[], runs: Run[]): [number, number][] {
  const n = slots.length;
  const m = runs.length;
  const w = m + 1;
  const len = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      len[i * w + j] = slots[i].local === runs[j].local ? len[(i + 1) * w + j + 1] + 1 : Math.max(len[(i + 1) * w + j], len[i * w + j + 1]);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (slots[i].local === runs[j].local) {
      pairs.push([i++, j++]);
    } else if (len[(i + 1) * w + j] >= len[i * w + j + 1]) i++;
    else j++;
  }
  return pairs;
}

function greedyPairs(slots: Slot[], runs: Run[]): [number, number][] {
  const pairs: [number, number][] = [];
  let i = 0;
  for (let j = 0; j < runs.length && i < slots.length; j++) {
    let k = i;
    while (k < slots.length && slots[k].local !== runs[j].local) k++;
    if (k < slots.length) {
      pairs.push([k, j]);
      i = k + 1;
    }
  }
  return pairs;
}
