import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { printableContract, printContract } from '../../src/contract/print';
import { matchXml } from '../../src/pattern/match/index';
import { formatMismatch } from '../../src/pattern/match/mismatch';
import { parseXml } from '../../src/xml/parse';
import { importWsdl } from '../../src/wsdl';
import { WSDL_FIXTURES as FIXTURES } from './fixtures';

/*
 * element-block.wsdl: `block` on an element declaration refuses derived types (xsi:type) and
 * substitution-group members at that element. Before, only the type's `block` was read: every
 * element of type Shape took Circle and Bare, and every member stood for its head. The
 * xsd-validity ratchet validates what it generates.
 */
const { text } = importWsdl(path.join(FIXTURES, 'structure', 'element-block.wsdl'));
const contract = parseContract(text, 'element-block.spec');
const order = contract.scenarios.find((s) => s.name === 'order')!;

const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
const shape = (name: string, type?: string) =>
  type === 'Circle' ? `<${name} xsi:type="b:Circle"><label>a</label><radius>1</radius></${name}>` : `<${name}${type ? ` xsi:type="b:${type}"` : ''}><label>a</label></${name}>`;
const parts = {
  open: shape('open'),
  noExtension: shape('noExtension'),
  noRestriction: shape('noRestriction'),
  none: shape('none'),
  item: shape('item'),
  sealed: shape('sealedItem'),
  noExt: shape('noExtItem'),
};
const request = (change: Partial<typeof parts>) =>
  matchXml(
    order.request.body!,
    parseXml(
      `<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><order xmlns="urn:accord:block" xmlns:b="urn:accord:block" ${XSI}>${Object.values({ ...parts, ...change }).join('')}</order></S:Body></S:Envelope>`,
    ),
    order.scope,
  ).map(formatMismatch);

describe("element-block.wsdl: an element's own block attribute", () => {
  it('writes a narrower derived list on the element, an empty one when it blocks all', () => {
    expect(text).toContain('<SPECMATIC_TYPE specmatic_derived="tns:Circle tns:Bare">');
    expect(text).toContain('<tns:open specmatic_type="Shape"/>');
    expect(text).toContain('<tns:noExtension specmatic_type="Shape" specmatic_derived="tns:Bare"/>');
    expect(text).toContain('<tns:noRestriction specmatic_type="Shape" specmatic_derived="tns:Circle"/>');
    expect(text).toContain('<tns:none specmatic_type="Shape" specmatic_derived=""/>');
  });

  it('accepts the derived types the element allows, and matches a blocked one as the declared type', () => {
    expect(request({})).toEqual([]);
    expect(request({ open: shape('open', 'Circle') })).toEqual([]);
    expect(request({ noExtension: shape('noExtension', 'Bare'), noRestriction: shape('noRestriction', 'Circle') })).toEqual([]);
    expect(request({ noExtension: shape('noExtension', 'Circle') }).join('\n')).toContain('noExtension/radius');
    expect(request({ none: shape('none', 'Circle') }).join('\n')).toContain('none/radius');
  });

  it('leaves out the substitution-group members the head blocks', () => {
    expect(text).toContain('<tns:circleItem specmatic_type="Circle"/>');
    expect(text).not.toContain('sealedMember');
    expect(text).not.toContain('noExtCircle');
    expect(text).toContain('<tns:noExtBare specmatic_type="Bare"/>');
    expect(request({ item: '<circleItem><label>a</label><radius>1</radius></circleItem>', noExt: '<noExtBare><label>a</label></noExtBare>' })).toEqual([]);
    expect(request({ sealed: shape('sealedMember') })).not.toEqual([]);
    expect(request({ noExt: '<noExtCircle><label>a</label><radius>1</radius></noExtCircle>' })).not.toEqual([]);
  });

  it('the empty list is read, printed and read back', () => {
    const printed = printContract(printableContract(contract));
    expect(printed).toContain('specmatic_derived=""');
    const plain = (v: unknown) => JSON.parse(JSON.stringify(v, (key, x: unknown) => (key === 'line' ? undefined : x)));
    expect(plain(parseContract(printed).scenarios[0].scope.types.get('Request'))).toEqual(plain(order.scope.types.get('Request')));
  });
});
