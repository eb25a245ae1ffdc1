import { readdirSync } from 'node:fs';
import { EnvelopeCapture } from '../../src/logs/envelope';
import { mergeElement, type ElementShape } from '../../src/logs/infer-xml';
import { checkExchange, importLogs, parseGenerated, readExchanges, verifyLogs } from '../../src/logs';
import { SCALARS } from '../../src/pattern/scalars/index';
import type { XmlElement, XmlNode } from '../../src/xml/tree';
import { seeded } from '../helpers/mutate';
import { fixture, LOGS } from './helpers';

/**
 * The import's fast paths give what the slow paths give: the same shapes, the same envelopes, the same dates.
 * Each is compared with the general way of doing it, over the fixture logs and seeded variations of them.
 */

/** Every logged XML message of the fixture logs, request and response apart, by operation. */
async function loggedTrees(): Promise<Map<string, XmlElement[]>> {
  const byOp = new Map<string, XmlElement[]>();
  const put = (key: string, el: XmlElement | undefined) => {
    if (!el) return;
    if (!byOp.has(key)) byOp.set(key, []);
    byOp.get(key)!.push(el);
  };
  const logs = readdirSync(LOGS).filter((f) => /\.(log|har)$/.test(f));
  expect(logs.length).toBeGreaterThanOrEqual(5);
  for (const log of logs) {
    await readExchanges([fixture(log)], (x) => {
      put(`${log} ${x.request.operation} request`, x.request.xml);
      put(`${log} ${x.request.operation} response`, x.response.xml);
    });
  }
  return byOp;
}

function clone(el: XmlElement): XmlElement {
  return { ...el, attributes: el.attributes.map((a) => ({ ...a })), children: el.children.map((c) => (c.type === 'element' ? clone(c) : { ...c })) };
}

/** The elements of a tree, root first. */
function elements(el: XmlElement, out: XmlElement[] = []): XmlElement[] {
  out.push(el);
  for (const c of el.children) if (c.type === 'element') elements(c, out);
  return out;
}

/** One structural change somewhere in a copy of the tree: a child dropped, repeated, moved, renamed, or its text changed. */
function varied(el: XmlElement, r: () => number): XmlElement {
  const copy = clone(el);
  const all = elements(copy);
  const at = all[Math.floor(r() * all.length)];
  const kids = at.children.filter((c): c is XmlElement => c.type === 'element');
  const pick = () => kids[Math.floor(r() * kids.length)];
  const index = (c: XmlNode) => at.children.indexOf(c);
  switch (kids.length === 0 ? 5 : Math.floor(r() * 6)) {
    case 0:
      at.children.splice(index(pick()), 1);
      break;
    case 1: {
      const c = pick();
      at.children.splice(index(c), 0, clone(c));
      break;
    }
    case 2: {
      const c = pick();
      at.children.splice(index(c), 1);
      at.children.splice(Math.floor(r() * (at.children.length + 1)), 0, c);
      break;
    }
    case 3: {
      const c = pick();
      const local = `x${Math.floor(r() * 3)}`;
      Object.assign(c, { local, name: c.prefix ? `${c.prefix}:${local}` : local });
      break;
    }
    case 4:
      at.children.push(clone(pick()));
      break;
    default:
      at.children = [{ type: 'text', value: ['12', 'abc', '2024-02-30', '2024-02-29', 'true'][Math.floor(r() * 5)] }];
  }
  return copy;
}

function merged(instances: XmlElement[], alwaysAlign: boolean): ElementShape | undefined {
  let shape: ElementShape | undefined;
  for (const el of instances) shape = mergeElement(shape, el, undefined, alwaysAlign);
  return shape;
}

describe('merging an instance with the same children as its shape (the fast path)', () => {
  it('gives the shape the alignment gives, for every operation of the fixture logs', async () => {
    const trees = await loggedTrees();
    expect(trees.size).toBeGreaterThan(10);
    for (const instances of trees.values()) expect(merged(instances, false)).toEqual(merged(instances, true));
  });

  it('gives the shape the alignment gives when instances vary (seeded: drops, repeats, moves, renames, other texts)', async () => {
    const trees = await loggedTrees();
    const r = seeded(14);
    let compared = 0;
    for (const instances of trees.values()) {
      for (let round = 0; round < 20; round++) {
        // Mostly the logged instances, some changed: both the fast path and the alignment are taken.
        const mixed = Array.from({ length: 8 }, () => {
          const el = instances[Math.floor(r() * instances.length)];
          return r() < 0.3 ? varied(el, r) : el;
        });
        expect(merged(mixed, false)).toEqual(merged(mixed, true));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(200);
  });
});

/** The closing-tag search before it looked only at the new text: the whole text from the last place searched. */
function wholeTextCapture(qname: string) {
  let text = '';
  let searchedTo = 0;
  const close = `</${qname}`;
  return (piece: string, separator: string): { done: boolean; rest: string; text: string } => {
    text += (text.length > 0 ? separator : '') + piece;
    for (let from = Math.max(0, searchedTo - close.length); ;) {
      const i = text.indexOf(close, from);
      if (i < 0) break;
      let j = i + close.length;
      while (j < text.length && /\s/.test(text[j])) j++;
      if (text[j] === '>') return { done: true, rest: text.slice(j + 1), text: text.slice(0, j + 1) };
      from = i + 1;
    }
    searchedTo = text.length;
    return { done: false, rest: '', text };
  };
}

describe('an envelope over several lines (closing tag searched in the new text only)', () => {
  it('closes where searching the whole text closes it, however the lines are cut', () => {
    const r = seeded(7);
    const parts = ['<s:Envelope>', '<a>1</a>', '</s:Envelope', '</s:Envelope>', '</s:Envelope  >', '</s:Env', 'elope>', '>', ' ', '</s:EnvelopeX>', 'tail', '</', 's:Envelope'];
    for (let n = 0; n < 3000; n++) {
      const lines = Array.from({ length: 1 + Math.floor(r() * 8) }, () => Array.from({ length: 1 + Math.floor(r() * 3) }, () => parts[Math.floor(r() * parts.length)]).join(''));
      const capture = new EnvelopeCapture('s:Envelope', 1_000_000);
      const oracle = wholeTextCapture('s:Envelope');
      for (const line of lines) {
        const got = capture.push(line, '\n');
        const want = oracle(line, '\n');
        expect({ lines, done: got.done, rest: got.rest }).toEqual({ lines, done: want.done, rest: want.rest });
        if (want.done) {
          expect(capture.value()).toBe(want.text);
          break;
        }
      }
    }
  });
});

describe('the calendar check of (date) and (datetime)', () => {
  it('accepts exactly the days a Date round trip accepts', () => {
    const roundTrip = (ymd: string) => {
      const d = new Date(`${ymd}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === ymd;
    };
    const years = [0, 1, 4, 100, 400, 1582, 1600, 1700, 1800, 1900, 1996, 1999, 2000, 2023, 2024, 2100, 2400, 9996, 9999];
    for (const y of years) {
      for (let m = 1; m <= 12; m++) {
        for (let d = 1; d <= 31; d++) {
          const ymd = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          expect([ymd, SCALARS.date.test(ymd), SCALARS.datetime.test(`${ymd}T10:00:00Z`)]).toEqual([ymd, roundTrip(ymd), roundTrip(ymd)]);
        }
      }
    }
  });
});

describe('the check pass trying the scenario that last accepted the same operation first', () => {
  it('reports the calls and mismatches that checking every scenario in order reports', async () => {
    const r = seeded(15);
    const logs = readdirSync(LOGS).filter((f) => /\.(log|har)$/.test(f));
    let rejected = 0;
    for (const log of logs) {
      const file = fixture(log);
      const { contract } = await importLogs([file]);
      // The contract as written, and copies where one placeholder accepts less: some calls no longer match.
      const placeholders = [...contract!.matchAll(/\((string|number|date|datetime|uuid)\)/g)];
      const variants = [
        contract!,
        ...Array.from({ length: 6 }, () => {
          const m = placeholders[Math.floor(r() * placeholders.length)];
          return contract!.slice(0, m.index) + '(boolean)' + contract!.slice(m.index! + m[0].length);
        }),
      ];
      for (const text of variants) {
        const parsed = parseGenerated(text, 'variant.spec');
        const plain: { at: unknown; mismatches: unknown }[] = [];
        await readExchanges([file], (x) => {
          const c = checkExchange(parsed, x);
          if (!c.scenario) plain.push({ at: x.request.at, mismatches: c.mismatches });
        });
        const guessed = await verifyLogs(parsed, [file]);
        expect(guessed.map(({ at, mismatches }) => ({ at, mismatches }))).toEqual(plain);
        rejected += plain.length;
      }
    }
    expect(rejected).toBeGreaterThan(10);
  });
});
