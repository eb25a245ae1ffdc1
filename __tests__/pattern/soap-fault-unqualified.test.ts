import { matchFaultCode, SOAP11_ENVELOPE } from '../../src/pattern/match/soap-fault';
import type { Pattern } from '../../src/pattern/types';

/**
 * A fault code in no namespace (pysimplesoap's `Server.OrderNotFound`) breaks WS-I Basic Profile R1004;
 * it fits only a contract that names it exactly (as `accord proxy` records it), never a `(string)`,
 * a `(qname)` or the importer's own code types (issue 38 point 3).
 */
const scope = { types: new Map<string, Pattern>() };
const ns = (p: string) => (p === 'soap' ? SOAP11_ENVELOPE : undefined);
const fits = (pattern: Pattern, text: string) => matchFaultCode('1.1', pattern, text, scope, 'faultcode', ns).length === 0;
const recorded: Pattern = { kind: 'enum', name: 'RecordedFaultCode', base: 'string', values: ['Server.OrderNotFound', 'soap:Client', 'soap:Server'] };

it('an unqualified code fits a contract that names it exactly, and only it', () => {
  expect(fits(recorded, 'Server.OrderNotFound')).toBe(true);
  expect(fits({ kind: 'literal', value: 'Server.OrderNotFound' }, 'Server.OrderNotFound')).toBe(true);
  expect(fits(recorded, 'Server.Other')).toBe(false);
  expect(fits(recorded, 'Server')).toBe(false);
  // SOAP's own codes still fit by SOAP's rules beside it.
  expect(fits(recorded, 'soap:Server')).toBe(true);
});

it("an unqualified code keeps failing R1004 against (string), (qname) and the importer's SoapFaultCode", () => {
  for (const p of [
    { kind: 'scalar', type: 'string' },
    { kind: 'scalar', type: 'qname' },
    { kind: 'enum', name: 'SoapFaultCode', base: 'qname', values: ['soap:Client', 'soap:Server', 'Server.OrderNotFound'] },
  ] as Pattern[]) {
    const m = matchFaultCode('1.1', p, 'Server.OrderNotFound', scope, 'faultcode', ns);
    expect(m).toEqual([expect.objectContaining({ expected: expect.stringContaining('R1004'), actual: expect.stringContaining('no prefix') })]);
  }
});
