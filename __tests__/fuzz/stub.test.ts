import { startStub, type RunningStub } from '../../src/stub';
import { CONTRACTS, invoiceRequest, petRequest } from '../stub/helpers';
import { damagedRequest, fuzzCases, fuzzExchanges, httpText, sendInCuts } from './oracle';

/**
 * The stub fed damaged HTTP over raw sockets: methods, paths, headers, bodies, chunked
 * encoding, split writes, bytes that are not HTTP at all; its own API (expectations, Specmatic's
 * form, the journal, reset, scopes, requests from a web page) and MTOM/XOP messages (Includes,
 * parts, one part named many times; expectations whose answers echo the request, past the bound on
 * what a template may make). It never answers 500, never hangs
 * (every exchange ends within its time-out), never logs an internal error, and nothing it
 * says holds a stack trace or a raw control character.
 */
const CASES = fuzzCases(1500);
const HANG_MS = 10_000;

let stub: RunningStub;
const logged: string[] = [];
beforeAll(async () => {
  stub = await startStub({ contracts: [CONTRACTS], log: (l) => logged.push(l), maxBodyBytes: 64 * 1024, allowedHosts: ['stub'] });
});
afterAll(() => stub.close());

const HEAD = ['Host: stub'];

const XML = ['Content-Type: text/xml; charset=utf-8'];
const JSON_TYPE = ['Content-Type: application/json'];
const XOP_NS = 'http://www.w3.org/2004/08/xop/include';
const PETS7 = { request: { method: 'GET', path: '/pets/7' }, response: { status: 200, headers: { 'X-From': 'fuzz' }, body: { petid: 7 } } };

/** An MTOM/XOP message for POST /ws: the pet id a binary part, named `times` times (latin1 text: one character a byte). */
function xop(times: number): [string, string, string[], string] {
  const include = `<xop:Include href="cid:id1" xmlns:xop="${XOP_NS}"/>`;
  const body = [
    '--b',
    'Content-ID: <root>',
    'Content-Type: application/xop+xml; charset=utf-8; type="text/xml"',
    '',
    petRequest(include.repeat(times)),
    '--b',
    'Content-ID: <id1>',
    'Content-Transfer-Encoding: binary',
    '',
    // base64 of these three bytes is "1234": a number, as the contract wants.
    Buffer.from('1234', 'base64').toString('latin1'),
    '--b--',
    '',
  ].join('\r\n');
  return ['POST', '/ws', ['Content-Type: multipart/related; type="application/xop+xml"; boundary=b; start="<root>"; start-info="text/xml"'], body];
}

const ECHO = '{{request.body.getPetRequest/id}}';
/** A getPet answer whose name is `name` (a template's text). */
const petAnswer = (name: string) =>
  `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body><pet:getPetResponse xmlns:pet="http://example.com/petstore"><pet:id>7</pet:id><pet:name>${name}</pet:name><pet:type>dog</pet:type><pet:status>x</pet:status></pet:getPetResponse></soapenv:Body></soapenv:Envelope>`;

const TEMPLATES: Array<() => [string, string, string[], string]> = [
  () => ['POST', '/ws', XML, petRequest('10')],
  () => ['POST', '/ws', [...XML, 'SOAPAction: "getPet"'], invoiceRequest('3')],
  () => ['GET', '/pets/7', ['Accept: application/json'], ''],
  () => ['POST', '/square', ['Content-Type: text/plain'], '12'],
  () => ['POST', '/pets', ['Content-Type: application/json'], '{"name":"Rex","type":"dog","status":"available"}'],
  () => ['OPTIONS', '/ws', ['Origin: http://x', 'Access-Control-Request-Method: POST'], ''],
  () => ['HEAD', '/pets/1', [], ''],
  // The stub's API.
  () => ['POST', '/_accord/expectations', JSON_TYPE, JSON.stringify({ ...PETS7, delayMs: 5 })],
  () => ['POST', '/_accord/expectations', JSON_TYPE, JSON.stringify({ ...PETS7, times: 2 })],
  () => ['POST', '/_specmatic/expectations', JSON_TYPE, JSON.stringify({ 'http-request': PETS7.request, 'http-response': PETS7.response, 'delay-in-seconds': 0.005 })],
  () => ['DELETE', '/_accord/expectations/e1', [], ''],
  () => ['DELETE', '/_specmatic/http-stub/e2', [], ''],
  () => ['GET', '/_accord/expectations', [], ''],
  () => ['GET', '/_accord/requests?path=/pets/7&unmatched=false', [], ''],
  () => ['POST', '/_accord/reset', [], ''],
  () => ['POST', '/_scope/f1/_accord/expectations', JSON_TYPE, JSON.stringify(PETS7)],
  () => ['GET', '/_scope/f1/pets/7', [], ''],
  () => ['GET', '/_scope/f1/_accord/requests', [], ''],
  () => ['POST', '/_accord/expectations', ['Content-Type: text/plain', 'Origin: http://evil.example'], JSON.stringify(PETS7)],
  // Response templates: the pet's name is its id 255 times (a string, so any id fits); a long id passes TEMPLATE_LIMITS.answerChars: a 413, never a 500 or a hang.
  () => ['POST', '/_accord/expectations', JSON_TYPE, JSON.stringify({ request: { method: 'POST', path: '/ws' }, response: { body: petAnswer(ECHO.repeat(255)) } })],
  () => [
    'POST',
    '/_scope/t1/_accord/expectations',
    JSON_TYPE,
    JSON.stringify({ request: { method: 'POST', path: '/ws' }, response: { body: petAnswer(`${ECHO} {{uuid}} {{sequence}}`) } }),
  ],
  () => ['POST', '/ws', XML, petRequest(`1${'0'.repeat(60_000)}`)],
  () => ['POST', '/_scope/t1/ws', XML, petRequest('12')],
  // MTOM/XOP.
  () => xop(1),
  () => xop(3),
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'get', 'P0ST', 'X'.repeat(40), ''];
const PALETTE = [
  '\r\n',
  '\r',
  '\n',
  ' ',
  ':',
  '/',
  '%',
  '%00',
  '%zz',
  '?',
  '#',
  '&',
  '=',
  '<',
  '>',
  '"',
  '\u0000',
  '\u0001',
  '\u001b[2J',
  'é',
  '\uFEFF',
  'Content-Length: 5\r\n',
  'Transfer-Encoding: chunked\r\n',
  'Content-Type: application/json\r\n',
  'Expect: 100-continue\r\n',
  '0\r\n\r\n',
  'HTTP/1.1',
  '(number)',
  '<![CDATA[x]]>',
  '&#0;',
  '{',
  '[',
  '9'.repeat(30),
  'x'.repeat(2000),
  '%E0%A4%A',
  '\\r\\n',
  '\\u0000',
  '"delayMs": 1,',
  '"headers": {"a b": "c"},',
  'Origin: http://evil.example\r\n',
  'Host: evil.example\r\n',
  'Content-Type: text/plain\r\n',
  '/_scope/',
  '/_accord/',
  '--b\r\n',
  `<xop:Include href="cid:id1" xmlns:xop="${XOP_NS}"/>`.repeat(50),
];

/** Sends `bytes` in one to three writes, half-closes, and collects the answer until the stub closes. */
function exchange(bytes: Buffer, cuts: number[]): Promise<string> {
  return sendInCuts(Number(new URL(stub.url).port), bytes, cuts, { hangMs: HANG_MS, endAfterWrite: true });
}

test(`${CASES} damaged HTTP requests: never 500, never a hang, no internal error, no stack trace or control character in an answer`, async () => {
  // The target is damaged from the whole palette; now and then the whole message, head included: malformed HTTP.
  let bounded = 0;
  const statuses = await fuzzExchanges(
    CASES,
    (r) =>
      damagedRequest(r, {
        templates: TEMPLATES,
        methods: METHODS,
        palette: PALETTE,
        targetParts: PALETTE,
        targetOdds: 0.2,
        wholeOdds: 0.25,
        head: HEAD,
      }),
    exchange,
    (answer, status) => {
      if (!answer.includes('TEMPLATE_LIMITS.answerChars')) return undefined;
      bounded++;
      return status === '413' ? undefined : `a template's bound refused with ${status}, not 413`;
    },
  );
  expect(logged.filter((l) => /internal error/.test(l))).toEqual([]);
  // Both sides were exercised: answered requests and refused ones.
  expect(statuses.get('200') ?? 0).toBeGreaterThan(CASES / 10);
  expect(statuses.get('400') ?? 0).toBeGreaterThan(CASES / 10);
  // The API was used for real (expectations set) and refused a web page.
  expect(statuses.get('201') ?? 0).toBeGreaterThan(0);
  expect(statuses.get('403') ?? 0).toBeGreaterThan(0);
  // A template passing its bound was refused by it (413), not made.
  expect(bounded).toBeGreaterThan(0);
  // The stub still answers, an MTOM/XOP request too.
  expect(await exchange(Buffer.from(httpText('POST', '/ws', HEAD, XML, petRequest('1'), false)), [])).toMatch(/^HTTP\/1\.1 200/);
  // (In the loop its text is sent as UTF-8, so its binary part does not match: unpacked, then a 400.)
  const [, , xopHeaders, xopBody] = xop(1);
  const xopHead = ['POST /ws HTTP/1.1', 'Host: 127.0.0.1', ...xopHeaders, `Content-Length: ${xopBody.length}`].join('\r\n');
  expect(await exchange(Buffer.from(`${xopHead}\r\n\r\n${xopBody}`, 'latin1'), [])).toMatch(/^HTTP\/1\.1 200/);
});
