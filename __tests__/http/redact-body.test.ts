import { redactBody } from '../../src/http/redact';
import { hideMismatch } from '../../src/http/drift';

/** What a drift report keeps of a body from real traffic: no credential, no card number. */
describe('redactBody', () => {
  it('hides credential-named elements and attributes, the whole WS-Security header, and masks card numbers in XML', () => {
    const xml =
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header><wsse:Security xmlns:wsse="x"><wsse:UsernameToken><wsse:Username>bob</wsse:Username></wsse:UsernameToken></wsse:Security></s:Header>' +
      '<s:Body><login token="t-123"><user>bob</user><Password>hunter2</Password><card>4111 1111 1111 1111</card></login></s:Body></s:Envelope>';
    const out = redactBody(xml);
    for (const secret of ['hunter2', 't-123', '4111 1111 1111 1111', 'UsernameToken']) expect(out).not.toContain(secret);
    expect(out).toContain('<Password>***</Password>');
    expect(out).toContain('token="***"');
    expect(out).toContain('<wsse:Security xmlns:wsse="x">***</wsse:Security>');
    expect(out).toContain('<user>bob</user>');
    expect(out).toContain('9999 9999 9999 9999');
  });

  it('hides credential-named JSON keys at any depth', () => {
    const out = redactBody('{"user": {"name": "bob", "apiKey": "k-1", "sessionId": "s-2"}, "list": [{"password": "p"}]}');
    expect(JSON.parse(out)).toEqual({ user: { name: 'bob', apiKey: '***', sessionId: '***' }, list: [{ password: '***' }] });
  });

  it('leaves out a body that looks like XML or JSON but does not read as it (its secrets could not be told apart)', () => {
    expect(redactBody('<a><Password>x</a>')).toBe('(left out: not well-formed XML, so its secrets could not be told apart)');
    expect(redactBody('{"password": "x"')).toBe('(left out: not well-formed JSON, so its secrets could not be told apart)');
    expect(redactBody('plain 4111111111111111')).toBe('plain 9999999999999999');
  });
});

it('hideMismatch hides the found value of a credential-named node', () => {
  expect(hideMismatch({ path: 'RESPONSE.BODY Envelope/Body/login/Password', expected: '(number)', actual: '"hunter2"' }).actual).toBe('***');
  expect(hideMismatch({ path: 'RESPONSE.BODY Envelope/Body/pet/name', expected: '(number)', actual: '"Rex"' }).actual).toBe('"Rex"');
});
