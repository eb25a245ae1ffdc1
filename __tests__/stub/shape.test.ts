import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import type { Contract } from '../../src/contract/model';
import { ParsedBody } from '../../src/http/body';
import { buildRequest } from '../../src/http/build-request';
import { splitPath } from '../../src/http/match-request';
import type { HttpRequest } from '../../src/http/message';
import { loadContracts } from '../../src/stub/contracts';
import { dispatch, type Outcome } from '../../src/stub/decide/dispatch';
import { DispatchMemo } from '../../src/stub/decide/memo';
import { shapeOf } from '../../src/stub/decide/shape';
import { buildRoutes } from '../../src/stub/decide/build-routes';
import { startStub } from '../../src/stub/server';
import { importWsdl } from '../../src/wsdl';
import { specCorpus, SPEC_CORPUS, withCorpus, wsdlCorpus } from '../helpers/corpus';
import { wsdlFixtures } from '../wsdl/fixtures';
import { CONTRACTS, PET_SPEC, petRequest, post } from './helpers';
import { depth } from '../helpers/depth';

/** A body that counts its parses: a request of a known shape must not need one. */
class CountingBody extends ParsedBody {
  parses = 0;
  override asXml() {
    this.parses++;
    return super.asXml();
  }
}

const chosen = (o: Outcome): string => (o.kind === 'matched' ? `${o.route.label} row ${o.row?.line ?? '-'} file ${o.fixed?.file ?? '-'}` : o.kind);

/** Values put in each slot in turn: numbers of each kind, words, booleans, dates, white space, long text, characters XML names. */
const VALUES = [
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
function sameChoices(contracts: Contract[], values = VALUES, maxSlots = 12): { asked: number; byShape: number } {
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

test('a request of a known shape gets the choice dispatch gives: the example contracts and repository WSDLs, every element text changed to twenty kinds of value', () => {
  const contracts = [...loadContracts([CONTRACTS]), ...wsdlFixtures().map((w) => parseContract(importWsdl(w.file).text, `${w.name}.spec`))];
  const { asked, byShape } = sameChoices(contracts);
  expect(asked).toBeGreaterThan(1000);
  // Most are answered from the notes, not parsed: the point of the shapes.
  expect(byShape / asked).toBeGreaterThan(0.3);
});

withCorpus(['wsdl-corpus', 'spec-corpus'], 'shapes on the shared corpora', () => {
  test('a request of a known shape gets the choice dispatch gives: the 30 real WSDLs and the 93 real contracts, every element text changed', () => {
    const contracts: Contract[] = [];
    for (const w of wsdlCorpus()) {
      try {
        contracts.push(parseContract(importWsdl(w.file).text, `${w.folder}.spec`));
      } catch {
        /* a WSDL the importer refuses has no contract to ask */
      }
    }
    for (const s of specCorpus()) {
      if (s.intent !== 'valid') continue;
      try {
        contracts.push(parseContract(readFileSync(path.join(SPEC_CORPUS, s.file), 'utf8'), s.file));
      } catch {
        /* not a contract accord reads */
      }
    }
    // Fewer values and slots: the corpora give thousands of requests.
    const { asked, byShape } = sameChoices(contracts, depth(['-1', '3.5', 'abc', 'true', '2024-02-29'], ['3.5', 'abc']), depth(4, 2));
    expect(asked).toBeGreaterThan(depth(4000, 1500));
    expect(byShape / asked).toBeGreaterThan(0.3);
  });
});

const spec = (scenarios: string) => parseContract(`Feature: Shapes\n${scenarios}`, 'shapes.spec');
const ENV = (inner: string) => `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${inner}</s:Body></s:Envelope>`;
const scenario = (name: string, request: string, extra = '') =>
  `  Scenario: ${name}\n    When POST /ws\n    And request-body ${request}\n    Then status 200\n    And response-body ${name}\n${extra}`;

function asker(contract: Contract) {
  const table = buildRoutes([contract]);
  const memo = new DispatchMemo(table);
  return (body: string) => {
    const req: HttpRequest = { method: 'POST', path: '/ws', query: [], headers: {}, body };
    const parsed = new CountingBody(body);
    const o = memo.dispatch(req, parsed, memo.keyOf(req, '/ws', parsed));
    const plain = dispatch(table, req, ['ws'], new ParsedBody(body));
    expect(chosen(o)).toBe(chosen(plain));
    return `${o.kind === 'matched' ? `${o.route.scenario.name}${o.row ? ` row ${o.row.line}` : ''}` : o.kind}${parsed.parses === 0 ? '' : ' (parsed)'}`;
  };
}

test('a value an earlier scenario takes is not answered by the later one its shape was first seen with (first match wins)', () => {
  const ask = asker(spec(scenario('five', ENV('<id>5</id>')) + scenario('number', ENV('<id>(number)</id>')) + scenario('word', ENV('<id>(string)</id>'))));
  expect([ENV('<id>7</id>'), ENV('<id>8</id>'), ENV('<id>5</id>'), ENV('<id>9</id>'), ENV('<id>x</id>'), ENV('<id>y</id>'), ENV('<id>5</id>')].map(ask)).toEqual([
    'number (parsed)',
    'number',
    'five (parsed)',
    'number',
    'word (parsed)',
    'word',
    'five',
  ]);
});

test('an Examples row is chosen by its value, whatever row the shape was first seen with; a value no row and no scenario takes is refused', () => {
  const rows = `    Examples:\n      | id |\n      | 1  |\n      | 2  |\n`;
  const ask = asker(
    spec(`  Scenario Outline: pets\n    When POST /ws\n    And request-body ${ENV('<id>(number)</id>')}\n    Then status 200\n    And response-body pet <id>\n${rows}`),
  );
  const answers = [ENV('<id>1</id>'), ENV('<id>2</id>'), ENV('<id>1</id>'), ENV('<id>3</id>'), ENV('<id>abc</id>')].map(ask);
  expect(answers[0]).toMatch(/^pets row \d+ \(parsed\)$/);
  expect(answers[1]).toMatch(/^pets row \d+( \(parsed\))?$/);
  expect(answers[1]).not.toBe(answers[0].replace(' (parsed)', ''));
  expect(answers[2]).toBe(answers[0].replace(' (parsed)', ''));
  expect(answers[3]).toMatch(/^pets( \(parsed\))?$/);
  expect(answers[4]).toBe('no-match (parsed)');
});

test('enumerations, unions and optional values are told apart by value', () => {
  const ask = asker(
    spec(
      '  Scenario: colours\n    Given enum Colour (string) values red,green\n    When POST /ws\n    And request-body ' +
        ENV('<c>(Colour)</c><n>(number?)</n>') +
        '\n    Then status 200\n    And response-body colour\n' +
        scenario('other', ENV('<c>(string)</c><n>(string)</n>')),
    ),
  );
  const results = [ENV('<c>red</c><n>1</n>'), ENV('<c>green</c><n>2</n>'), ENV('<c>blue</c><n>3</n>'), ENV('<c>red</c><n>x</n>'), ENV('<c>green</c><n>4</n>')].map(ask);
  expect(results.map((r) => r.replace(' (parsed)', ''))).toEqual(['colours', 'colours', 'other', 'other', 'colours']);
  expect(results[1]).toBe('colours');
});

test('requests a shape cannot stand for are parsed every time: references, CDATA, comments, two runs of text in one element', () => {
  const ask = asker(spec(scenario('any', ENV('<id>(string)</id>'))));
  for (const body of [ENV('<id>a&amp;b</id>'), ENV('<id><![CDATA[x]]></id>'), ENV('<id>a<!-- c -->b</id>')]) {
    expect(ask(body)).toBe('any (parsed)');
    expect(ask(body)).toBe('any');
    // The same shape with another text: still parsed (it has no shape).
    expect(ask(body.replace('a', 'z'))).toBe('any (parsed)');
  }
  expect(shapeOf(ENV('<id>a<b/>c</id>'))).toBeUndefined();
  expect(shapeOf('text<a/>')).toBeUndefined();
  expect(shapeOf('<a x="1>2">t</a>')).toEqual({ key: '<a x="1>2">\0</a>', slots: ['t'] });
  expect(shapeOf('<?xml version="1.0"?>\n<a>\n  <b> t </b>\n</a>')).toEqual({ key: '<?xml version="1.0"?>\n<a>\n  <b>\0</b>\n</a>', slots: ['t'] });
  expect(shapeOf('<a><b/></a>')).toBeUndefined();
});

test('through the stub: new ids are answered each with values of their own, a repeated one as before, and the journal names the scenario', async () => {
  const stub = await startStub({ contracts: PET_SPEC });
  try {
    const answers: string[] = [];
    for (const id of ['10', '11', '12', '10', 'abc']) {
      const a = await post(`${stub.url}/ws`, petRequest(id));
      answers.push(`${a.status} ${a.body}`);
    }
    expect(answers.slice(0, 4).every((a) => a.startsWith('200 '))).toBe(true);
    expect(new Set(answers.slice(0, 3)).size).toBe(3);
    expect(answers[3]).toBe(answers[0]);
    expect(answers[4]).toMatch(/^400 /);
    expect(stub.calls().map((c) => c.scenario?.name ?? c.status)).toEqual(['Get a pet by id', 'Get a pet by id', 'Get a pet by id', 'Get a pet by id', 400]);
  } finally {
    await stub.close();
  }
});
