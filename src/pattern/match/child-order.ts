import { MAX_ORDER_CELLS } from '../../limits';
import type { Mismatch } from './mismatch';

/*
 * When an element's children cannot fill its slots in order, the report should
 * name what a person would fix: each node that is out of place once, each node
 * that is missing or unexpected once. Walking the slots greedily does not: one
 * swapped pair pushed every later node out of step and produced contradictory
 * lines ("year: expected <year>, found <author>" then "year: unexpected node").
 *
 * So the children are aligned with the slots by the fewest changes (a child
 * left out costs one, a required slot left empty costs one), and every child
 * left out is then explained on its own: a name no slot has is unexpected; a
 * name whose slots are all taken is one too many; any other is misplaced, told
 * against a neighbour it should have been on the other side of.
 */

export interface OrderSlot {
  local: string;
  min: number;
  max: number;
}

/** The name of a wildcard slot (`xs:any`): no element has it, and it takes a child of any name. */
export const ANY_NAME = '*';

/** What the caller does next, in document order: compare a child with a slot's pattern, or report. */
export type OrderStep = { kind: 'check'; child: number; slot: number; path: string } | { kind: 'report'; mismatch: Mismatch };

const TAKE = 0;
const CLOSE = 1;
const SKIP = 2;

/** The slot each child fills in a cheapest alignment, -1 for a child left out; undefined when too large to search. */
export function cheapestAlignment(slots: readonly OrderSlot[], children: readonly { local: string }[]): Int32Array | undefined {
  const n = slots.length;
  const m = children.length;
  if ((n + 1) * (m + 1) > MAX_ORDER_CELLS) return undefined;
  const ids = new Map<string, number>();
  const id = (local: string) => {
    let v = ids.get(local);
    if (v === undefined) ids.set(local, (v = ids.size));
    return v;
  };
  const slotId = slots.map((s) => id(s.local));
  // A plain loop: Int32Array.from with a mapping function is several times slower (90,000 children: ~15 ms).
  const childId = new Int32Array(m);
  for (let j = 0; j < m; j++) childId[j] = id(children[j].local);
  const anyId = ids.get(ANY_NAME) ?? -2;
  // cost(i, j, k): fewest changes for slots i.. and children j.., k = 1 once slot i holds a child.
  // Filled from the last slot back, one row per slot; the choices are kept to walk forward after.
  const width = (m + 1) * 2;
  const choice = new Uint8Array(n * width);
  const next = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) next[j] = m - j;
  for (let i = n - 1; i >= 0; i--) {
    const row = new Int32Array(width);
    const { min, max } = slots[i];
    for (let j = m; j >= 0; j--) {
      for (let k = 1; k >= 0; k--) {
        let best = next[j] + (k === 0 && min >= 1 ? 1 : 0);
        let how = CLOSE;
        if (j < m) {
          if ((childId[j] === slotId[i] || slotId[i] === anyId) && (k === 0 || max > 1) && row[(j + 1) * 2 + 1] <= best) {
            best = row[(j + 1) * 2 + 1];
            how = TAKE;
          }
          if (row[(j + 1) * 2 + k] + 1 < best) {
            best = row[(j + 1) * 2 + k] + 1;
            how = SKIP;
          }
        }
        row[j * 2 + k] = best;
        choice[i * width + j * 2 + k] = how;
      }
    }
    for (let j = 0; j <= m; j++) next[j] = row[j * 2];
  }
  const assigned = new Int32Array(m).fill(-1);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < n) {
    const how = choice[i * width + j * 2 + k];
    if (how === TAKE) {
      assigned[j++] = i;
      k = 1;
    } else if (how === SKIP) j++;
    else {
      i++;
      k = 0;
    }
  }
  return assigned;
}

/**
 * The steps that explain children which fit no order of the slots (`assigned` from cheapestAlignment).
 * `limit`: stop after that many reports (the stub's report is full at 50; 150,000 unexpected nodes
 * made 150,000 steps, each with its path and sentence, to be thrown away).
 */
export function explainOrder(slots: readonly OrderSlot[], children: readonly { local: string }[], assigned: Int32Array, path: string, limit = Infinity): OrderStep[] {
  const m = children.length;
  const filled = new Int32Array(slots.length);
  for (let c = 0; c < m; c++) if (assigned[c] >= 0) filled[assigned[c]]++;
  const slotsOf = new Map<string, number[]>();
  slots.forEach((s, i) => slotsOf.set(s.local, [...(slotsOf.get(s.local) ?? []), i]));

  // Each left-out child claims the first of its slots still open to it, so that slot is not also called
  // missing; a child with no open slot is one too many, a child with no slot of its name unexpected.
  const UNEXPECTED = -1;
  const TOO_MANY = -2;
  const claimed = new Uint8Array(slots.length);
  const home = new Int32Array(m);
  for (let c = 0; c < m; c++) {
    if (assigned[c] >= 0) continue;
    const candidates = slotsOf.get(children[c].local);
    const open = candidates?.find((i) => slots[i].max > filled[i] + (claimed[i] ? 1 : 0) || (filled[i] === 0 && !claimed[i]));
    home[c] = !candidates ? UNEXPECTED : open === undefined ? TOO_MANY : open;
    if (open !== undefined) claimed[open] = 1;
  }

  // A required slot no child fills or claims is missing, told with the node that stands where it belongs:
  // the first child after those filling earlier slots (filled slots come in document order) that is not
  // itself explained as misplaced or one too many.
  const missingBefore = new Map<number, OrderStep[]>();
  let place = 0;
  let scan = 0;
  for (let s = 0; s < slots.length; s++) {
    for (; scan < m && assigned[scan] < s; scan++) if (assigned[scan] >= 0) place = scan + 1;
    if (slots[s].min === 0 || filled[s] > 0 || claimed[s]) continue;
    let stand = place;
    while (stand < m && assigned[stand] < 0 && home[stand] !== UNEXPECTED) stand++;
    const found = children[stand];
    const step = report(`${path}/${slots[s].local}`, `node <${slots[s].local}>`, found ? `<${found.local}> in its place` : 'nothing (missing node)');
    missingBefore.set(stand, [...(missingBefore.get(stand) ?? []), step]);
  }

  // The nearest child on each side that is in its place: what a misplaced node is told against.
  const prev = new Int32Array(m);
  const next = new Int32Array(m);
  for (let c = 0, last = -1; c < m; c++) {
    prev[c] = last;
    if (assigned[c] >= 0) last = c;
  }
  for (let c = m - 1, last = -1; c >= 0; c--) {
    next[c] = last;
    if (assigned[c] >= 0) last = c;
  }

  const steps: OrderStep[] = [];
  let checks = 0;
  const taken = new Int32Array(slots.length);
  const seen = new Map<string, number>();
  const tooMany = new Set<string>();
  for (let c = 0; c <= m && steps.length - checks < limit; c++) {
    const missing = missingBefore.get(c);
    if (missing) for (const step of missing) steps.push(step);
    if (c === m) break;
    const local = children[c].local;
    const occurrence = seen.get(local) ?? 0;
    seen.set(local, occurrence + 1);
    const s = assigned[c];
    if (s >= 0) {
      const index = taken[s]++;
      const at = `${path}/${local}${slots[s].max > 1 ? `[${index}]` : ''}`;
      // The alignment counts 1 and many only: a bound beyond those is told here, once per slot.
      const { min, max } = slots[s];
      if (index === max) steps.push(report(`${path}/${local}`, `at most ${max} nodes <${local}>`, `${filled[s]}`));
      if (index + 1 === filled[s] && filled[s] < min) steps.push(report(`${path}/${local}`, `at least ${min} nodes <${local}>`, `${filled[s]}`));
      steps.push({ kind: 'check', child: c, slot: s, path: at });
      checks++;
      continue;
    }
    const h = home[c];
    if (h === UNEXPECTED) {
      steps.push(report(`${path}/${local}`, 'no such node here', `unexpected node <${local}>`));
    } else if (h === TOO_MANY) {
      if (tooMany.has(local)) continue;
      tooMany.add(local);
      const candidates = slotsOf.get(local)!;
      const most = candidates.reduce((n, i) => n + slots[i].max, 0);
      const allowed =
        candidates.length === 1 && slots[candidates[0]].min === most ? (most === 1 ? 'one node' : `${most} nodes`) : `at most ${most === 1 ? 'one node' : `${most} nodes`}`;
      let total = 0;
      for (const ch of children) if (ch.local === local) total++;
      steps.push(report(`${path}/${local}`, `${allowed} <${local}>`, `${total}`));
    } else {
      const at = `${path}/${local}${slots[h].max > 1 ? `[${occurrence}]` : ''}`;
      const p = prev[c];
      const q = next[c];
      if (p >= 0 && assigned[p] > h) steps.push(report(at, `node <${local}> before <${children[p].local}>`, `<${local}> after <${children[p].local}>`));
      else if (q >= 0 && assigned[q] < h) steps.push(report(at, `node <${local}> after <${children[q].local}>`, `<${local}> before <${children[q].local}>`));
      else steps.push(report(at, `node <${local}> in its place in the order`, `<${local}> as child node ${c + 1}`));
      // Its content is still worth checking against the slot it belongs to.
      steps.push({ kind: 'check', child: c, slot: h, path: at });
      checks++;
    }
  }
  return steps;
}

function report(path: string, expected: string, actual: string): OrderStep {
  return { kind: 'report', mismatch: { path, expected, actual } };
}
