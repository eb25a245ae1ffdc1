import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isCardNumber, isSecretHeader, maskCardNumbers } from '../../src/http/redact';
import { importLogs } from '../../src/logs';

/**
 * Card numbers and session ids never reach a contract, even with --examples, whatever the
 * node holding them is called; a HAR entry `accord proxy` marked as cut is left out, counted.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'accord-redact-values-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entry = (url: string, request: unknown, response: unknown, extra: { truncated?: boolean } = {}) => ({
  request: {
    method: 'POST',
    url,
    headers: [{ name: 'content-type', value: 'application/json' }],
    postData: { mimeType: 'application/json', text: JSON.stringify(request) },
  },
  response: {
    status: 200,
    headers: [{ name: 'content-type', value: 'application/json' }],
    content: { mimeType: 'application/json', text: JSON.stringify(response), ...(extra.truncated ? { _truncated: true, comment: 'cut' } : {}) },
  },
});

it('card numbers (by the Luhn check) and session ids stay out of Examples; other numbers stay in', async () => {
  const file = path.join(dir, 'pay.har');
  const har = {
    log: {
      entries: [
        entry('http://svc/pay', { pan: '4111111111111111', amount: 12, reference: '1234567812345678', JSESSIONID: 'abc', sid: 'S1' }, { ok: true }),
        entry('http://svc/pay', { pan: '5500-0000-0000-0004', amount: 13, reference: '1234567812345679', JSESSIONID: 'def', sid: 'S2' }, { ok: true }),
      ],
    },
  };
  writeFileSync(file, JSON.stringify(har));
  const { contract, report } = await importLogs([file], { examples: true });
  for (const secret of ['4111111111111111', '5500-0000-0000-0004', 'abc', 'def', 'S1', 'S2'])
    expect({ secret, found: contract!.includes(`| ${secret} `) }).toEqual({ secret, found: false });
  // A 16-digit reference that fails the Luhn check is not a card number: it stays.
  expect(contract).toContain('1234567812345678');
  expect(report.redactedValues).toBe(6);
});

it('leaves out a HAR entry marked as cut, counts it, and writes the others', async () => {
  const file = path.join(dir, 'cut.har');
  writeFileSync(file, JSON.stringify({ log: { entries: [entry('http://svc/a', { x: 1 }, { y: 2 }), entry('http://svc/big', { x: 1 }, { y: 'aaaa' }, { truncated: true })] } }));
  const { contract, report } = await importLogs([file]);
  expect(contract).toContain('POST /a');
  expect(contract).not.toContain('POST /big');
  expect([...report.skipped.keys()]).toEqual([expect.stringContaining('HAR entries with a body recorded only in part')]);
});

it('tells card numbers and secret headers', () => {
  expect(isCardNumber('4111111111111111')).toBe(true);
  expect(isCardNumber('4111 1111 1111 1111')).toBe(true);
  expect(isCardNumber('4111111111111112')).toBe(false);
  expect(isCardNumber('41111111111111110000')).toBe(false);
  expect(maskCardNumbers('card 4111-1111-1111-1111, order 12345678901234567890, ref 4111111111111112').text).toBe(
    'card 9999-9999-9999-9999, order 12345678901234567890, ref 4111111111111112',
  );
  // Masked numbers fail the Luhn check: masking twice changes nothing.
  expect(maskCardNumbers('9999999999999999').masked).toBe(0);
  for (const h of ['authorization', 'Cookie', 'set-cookie', 'x-session-id', 'X-Auth-Token', 'x-api-key']) expect({ h, secret: isSecretHeader(h) }).toEqual({ h, secret: true });
  for (const h of ['content-type', 'soapaction', 'accept']) expect({ h, secret: isSecretHeader(h) }).toEqual({ h, secret: false });
});
