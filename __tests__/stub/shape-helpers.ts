import { testCases } from '../../src/contract/load';
import type { Contract } from '../../src/contract/model';
import { ParsedBody } from '../../src/http/body';
import { buildRequest } from '../../src/http/build-request';
import { splitPath } from '../../src/http/match-request';
import type { HttpRequest } from '../../src/http/message';
import { dispatch, type Outcome } from '../../src/stub/decide/dispatch';
import { DispatchMemo } from '../../src/stub/decide/memo';
import { shapeOf } from '../../src/stub/decide/shape';
import { buildRoutes } from '../../src/stub/decide/build-routes';

/** A body that counts its parses: a request of a known shape must not need one. */
export class CountingBody extends ParsedBody {
  parses = 0;
  override asXml() {
    this.parses++;
    return super.asXml();
  }
}

export const chosen = (o: Outcome): string => (o.kind === 'matched' ? `${o.route.label} row ${o.row?.line ?? '-'} file ${o.fixed?.file ?? '-'}` : o.kind);

/** Values put in each slot in turn: numbers of each kind, words, booleans, dates, white space, long text, characters XML names. */
export const VALUES = [
  '0',
  '7',
  '-1',
  '3.5',
  '1e3',
  '99999999999999999999',
  'abc',
  'true',
  'false',
  'TRUE',
  '2024-02-29',
  '2024-13-01',
  '12:30:00',
  ' padded ',
  'x'.repeat(300),
  '"q"',
  "it's",
  '>',
  'ä€',
  'P1D',
];

/** The request with slot `i` set to `value`: the shape's key holds a \0 where each slot's text was. */
function withSlot(text: string, i: number, value: string): string | undefined {
  const shape = shapeOf(text);
  if (!shape || i >= shape.slots.length) return undefined;
  const parts = shape.key.split('\0');
  return parts.map((p, k) => (k === 0 ? p : (k - 1 === i ? value : shape.slots[k - 1]) + p)).join('');
}

/**
 * For every request a contract's scenarios give (each Examples row among them), and each of those
 * with one element's text changed to each of VALUES: the memo, which answers requests of a shape it
 * knows from its notes, makes the choice dispatch makes. Returns how many requests were asked and
 * how many of those were answered from a shape's notes (no parse).
 */
export function sameChoices(contracts: Contract[], values = VALUES, maxSlots = 12): { asked: number; byShape: number } {
  let asked = 0;
  let byShape = 0;
  for (const contract of contracts) {
    let table: ReturnType<typeof buildRoutes>;
    try {
      table = buildRoutes([contract]);
    } catch {
      continue;
    }
    const memo = new DispatchMemo(table);
    const requests: HttpRequest[] = [];
    for (const tc of testCases(contract)) {
      let req: HttpRequest;
      try {
        req = buildRequest(tc, 1);
      } catch {
        continue;
      }
      requests.push(req);
      const slots = shapeOf(req.body)?.slots.length ?? 0;
      for (let i = 0; i < Math.min(slots, maxSlots); i++)
        for (const v of values) {
          const body = withSlot(req.body, i, v);
          if (body !== undefined) requests.push({ ...req, body });
        }
    }
    for (const req of requests) {
      const url = req.path + (req.query.length > 0 ? `?${new URLSearchParams(req.query)}` : '');
      const expected = chosen(dispatch(table, req, splitPath(req.path), new ParsedBody(req.body)));
      const body = new CountingBody(req.body);
      const got = chosen(memo.dispatch(req, body, memo.keyOf(req, url, body)));
      if (got !== expected) throw new Error(`${contract.file ?? ''}: the memo chose ${got}, dispatch ${expected}, for\n${req.body}`);
      asked++;
      if (body.parses === 0 && got !== 'no-match' && got !== 'unknown-path') byShape++;
    }
  }
  return { asked, byShape };
}
