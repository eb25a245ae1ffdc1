import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { isFaultScenario } from '../../src/contract/model';
import { buildRequest } from '../../src/http/build-request';
import { generateText } from '../../src/pattern/generate/index';
import { matchText } from '../../src/pattern/match/index';
import { parsePlaceholder } from '../../src/pattern/placeholder';
import { createRandom } from '../../src/pattern/random';
import { runCase } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { validateMessage } from '../../src/validate';
import { importWsdl } from '../../src/wsdl';
import { measureWsdl } from '../helpers/xsd/measure';
import { buildSchemaSet } from '../helpers/xsd/schema-set';
import { payloadsOf, validateAll } from '../helpers/xsd/validate';

/**
 * xs:union imported as XSD defines it (issue 13, class 5), judged against xmllint (libxml2) on the fixture's own
 * schema: what the contract accepts is what the schema accepts, and what accord generates the schema accepts.
 */
const WSDL = path.join(__dirname, '..', 'fixtures', 'wsdl', 'unions', 'unions.wsdl');
const { text } = importWsdl(WSDL);
const contract = parseContract(text, 'unions.spec');

describe('unions.wsdl imports its unions member by member', () => {
  test('memberTypes then inline members, in that order; an inline enumeration of "" is (empty); an inline union joins its outer one', () => {
    expect(text).toContain('type Size (unsignedByte | SizeName | empty)');
    expect(text).toContain('type SizeOrWhen (Size | date | boolean)');
    expect(text).toContain('<SPECMATIC_TYPE lang="(language | empty)">');
  });

  test('lists in a union are declared types named after the union', () => {
    expect(text).toContain('type Sizes (list SizeName)');
    expect(text).toContain('type SizesOrNumbersMember1 (list int)');
    expect(text).toContain('enum SizesOrNumbersMember2 (token) values none');
    expect(text).toContain('type SizesOrNumbers (Sizes | SizesOrNumbersMember1 | SizesOrNumbersMember2)');
  });

  test('a pattern restricting a union is on each member; an enumeration member keeps the values that fit it, and one with none is left out', () => {
    expect(text).toContain('type ShortSizeMember (unsignedByte pattern="[SML]|[0-9]{1,2}")');
    expect(text).toContain('type ShortSize (ShortSizeMember | SizeName)');
    expect(text).toContain('enum FewSizes (string) values ["1","M",""]');
  });

  test('a restriction of a list keeps its length facets, which count items', () => {
    expect(text).toContain('type TwoSizes (list SizeName maxLength=2)');
  });
});

/** A PutItem request with every element valid, one of them replaced. */
function request(change: Partial<Record<'size' | 'sizeOrWhen' | 'sizes' | 'short' | 'few' | 'two' | 'lang', string>>): string {
  const v = { size: '7', sizeOrWhen: 'M', sizes: 'S M', short: 'L', few: '1', two: 'S', lang: 'en', ...change };
  const el = (n: string) => `<u:${n}>${v[n as keyof typeof v]}</u:${n}>`;
  return (
    '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><u:PutItem xmlns:u="urn:accord:unions">' +
    `<u:item lang="${v.lang}">${['size', 'sizeOrWhen', 'sizes', 'short', 'few', 'two'].map(el).join('')}</u:item></u:PutItem></soapenv:Body></soapenv:Envelope>`
  );
}

/** [element, value, whether XSD accepts it]; the validator below checks the third column too. */
const VALUES: [keyof Parameters<typeof request>[0], string, boolean][] = [
  ['size', '255', true],
  ['size', ' 7 ', true],
  ['size', '256', false],
  ['size', 'M', true],
  ['size', '', true],
  ['size', 'X', false],
  ['sizeOrWhen', '2024-02-29', true],
  ['sizeOrWhen', 'true', true],
  ['sizeOrWhen', '', true],
  ['sizeOrWhen', '2023-02-29', false],
  ['sizes', 'S M L', true],
  ['sizes', '1 -2 3', true],
  ['sizes', 'none', true],
  ['sizes', '', true],
  ['sizes', 'S 1', false],
  ['short', '12', true],
  ['short', 'S', true],
  ['short', '123', false],
  ['short', '', false],
  ['short', 'X', false],
  ['few', 'M', true],
  ['few', '', true],
  ['few', '2', false],
  ['two', 'S L', true],
  ['two', 'S M L', false],
  ['lang', '', true],
  ['lang', 'en-GB', true],
  ['lang', 'not a language', false],
];

describe('matching a union: a value any member accepts, as xmllint judges it', () => {
  test.each(VALUES)('%s = %j: accepted %s', (element, value, valid) => {
    const v = validateMessage(contract, request({ [element]: value }));
    expect({ fits: v.fits.length === 1, mismatches: v.attempts[0]?.mismatches.map((m) => `${m.path}: ${m.expected}`) ?? [] }).toMatchObject({ fits: valid });
  });

  test('the validator agrees with every row of the table', async () => {
    const set = buildSchemaSet(WSDL);
    const payloads = VALUES.map(([element, value]) => payloadsOf(request({ [element]: value }))[0].xml);
    const { verdicts } = await validateAll(set, payloads);
    expect(VALUES.map(([e, v], i) => [e, v, verdicts[i].valid])).toEqual(VALUES);
  });
});

describe('generating a union: a value of one member, valid against the schema', () => {
  test('twenty seeds of requests and of stub responses are all valid', async () => {
    const seeds = Array.from({ length: 20 }, (_, i) => i);
    const m = await measureWsdl({ importWsdl, parseContract, testCases, runCase, startStub, isFaultScenario, buildRequest }, WSDL, seeds);
    expect({ requests: m.requests, responses: m.responses, failures: m.failures.slice(0, 2) }).toEqual({
      requests: { valid: 20, total: 20 },
      responses: { valid: 20, total: 20 },
      failures: [],
    });
  }, 60_000);

  test('a member with no value of its own (a pattern its type cannot meet) gives way to another member', () => {
    const scope = { types: new Map() };
    const union = parsePlaceholder('(date pattern="[A-Z]+" | int)')!;
    for (let seed = 0; seed < 50; seed++) {
      const value = generateText(union, { scope, rng: createRandom(seed) });
      expect({ seed, value, ok: matchText(union, value, scope) }).toEqual({ seed, value, ok: [] });
    }
  });
});
