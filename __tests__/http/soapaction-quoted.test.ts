import path from 'node:path';
import { loadContract, parseContract, testCases } from '../../src/contract/load';
import { buildRequest } from '../../src/http/build-request';
import { importWsdl } from '../../src/wsdl';

/**
 * SOAP 1.1 (6.1.1) and WS-I Basic Profile (R1109): the SOAPAction header is a quoted string.
 * The imported contract lists only that form, and a contract that lists the bare one too (as
 * accord and Specmatic wrote them before) still has its tests send the quoted form. A stub
 * keeps accepting both (__tests__/stub).
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures');

function actionsSent(contract: ReturnType<typeof parseContract>): string[] {
  const out: string[] = [];
  for (const tc of testCases(contract)) for (let seed = 0; seed < 8; seed++) out.push(buildRequest(tc, seed).headers.soapaction ?? '(none)');
  return out;
}

test('an imported contract writes the quoted SOAPAction only, and its tests send it quoted', () => {
  const { text } = importWsdl(path.join(FIXTURES, 'wsdl', 'services', 'multi.wsdl'));
  expect(text).toContain('And enum SoapAction (string) values "urn:accord:multi/search"\n');
  const sent = actionsSent(parseContract(text, 'multi.spec'));
  expect(sent.length).toBeGreaterThan(8);
  expect(sent.filter((a) => a !== '(none)' && !/^".*"$/.test(a))).toEqual([]);
});

test('a contract listing both spellings sends the quoted one', () => {
  const sent = actionsSent(loadContract(path.join(FIXTURES, 'specs', 'soap-quote.spec')));
  expect(new Set(sent)).toEqual(new Set(['"urn:quotes:get"']));
});
