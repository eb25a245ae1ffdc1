import { exampleKey } from '../../src/http/example-key';

/** One example, however it is written: what dedupes consumers' examples before they are published. */
const example = (over: Record<string, unknown> = {}, body = '<a>\n  <b>1</b>\n</a>') => ({
  'http-request': { method: 'post', path: '/orders?x=1&y=2', headers: { SOAPAction: 'urn:a' }, body, ...over },
  'http-response': { status: 200, body: { total: 1, currency: 'EUR' } },
});

test('header case, query order, JSON key order, XML indentation and notes are not part of an example', () => {
  const key = exampleKey(example());
  expect(exampleKey({ ...example({ method: 'POST', path: '/orders?y=2', query: { x: 1 }, headers: { soapaction: 'urn:a' } }, '<a><b>1</b></a>'), name: 'a test' })).toBe(key);
  expect(exampleKey({ ...example(), 'http-response': { status: 200, body: '{"currency":"EUR","total":1}' } })).toBe(key);
});

test('a value, a header or the status makes another example', () => {
  const key = exampleKey(example());
  expect(exampleKey(example({}, '<a><b>2</b></a>'))).not.toBe(key);
  expect(exampleKey(example({}, '<a><b> 1</b></a>'))).not.toBe(key);
  expect(exampleKey(example({ headers: { SOAPAction: 'urn:b' } }))).not.toBe(key);
  expect(exampleKey({ ...example(), 'http-response': { status: 500, body: { total: 1, currency: 'EUR' } } })).not.toBe(key);
});
