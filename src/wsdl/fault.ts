import type { Pattern, ScalarType, XmlElementPattern, XmlWildcardPattern } from '../pattern/types';
import { MULTIPLE, OPTIONAL } from '../pattern/occurs';
import { ANYTHING, element } from './emit-context';
import { ENVELOPE_PREFIX } from './envelope';
import type { SoapVersion } from './model';

/**
 * The status a fault scenario answers with. SOAP 1.1's HTTP binding sends every fault with 500.
 * SOAP 1.2's (part 2, 7.5.1.2) sends env:Sender faults with 400 and the others with 500; a WSDL
 * fault does not say which its code is, and the servers in use (CXF, .NET, the `soap` package)
 * answer 500 for a fault the service throws, so the importer writes 500 for both versions (edit
 * it to 400 for a fault your service sends as env:Sender).
 */
export const FAULT_STATUS = 500;

const scalar = (type: ScalarType): Pattern => ({ kind: 'scalar', type });

/**
 * `<soapenv:Fault>` of the binding's SOAP version, its `detail` holding the fault message's
 * nodes. The code is one of SOAP's (`SoapFaultCode`, `Soap12FaultCode`: a stub answers
 * soapenv:Client or soapenv:Server, never a made-up name; matching judges a provider's code by
 * SOAP's rules, pattern/soap-fault.ts), the reason its own words; an Examples column may name
 * them. The optional parts SOAP defines (faultactor; Subcode, Node and Role) are optional nodes;
 * the Reason holds one Text (SOAP 1.2 allows one per language), xml:lang written, not required.
 * `detail` is null for a fault with no message content: any detail, or none, is accepted then.
 * After the declared entries any further entries are accepted unchecked (`moreDetail`).
 */
export function faultElement(v: SoapVersion, detail: XmlElementPattern[] | null): XmlElementPattern {
  const p = ENVELOPE_PREFIX;
  const code: Pattern = { kind: 'ref', name: faultCodeType(v).name };
  if (v === '1.1') {
    // faultcode, faultstring, faultactor and detail are unqualified (SOAP 1.1, 4.4); .NET adds xml:lang to faultstring.
    const lang = { name: 'xml:lang', local: 'lang', optional: true, pattern: scalar('language') };
    return element(`${p}:Fault`, {
      children: [
        element('faultcode', { text: code }),
        element('faultstring', { attributes: [lang], text: scalar('string') }),
        element('faultactor', { occurs: OPTIONAL, text: scalar('anyURI') }),
        detail === null ? element('detail', { occurs: OPTIONAL, text: ANYTHING }) : element('detail', { children: [...detail, moreDetail()] }),
      ],
    });
  }
  // SOAP 1.2 (part 1, 5.4.2.1) requires xml:lang on Text: a stub writes it. PHP's SoapServer and the soap
  // package leave it out and every client reads their faults, so a test accepts that (docs/wsdl-import.md).
  const lang = { name: 'xml:lang', local: 'lang', optional: true, pattern: scalar('language') };
  return element(`${p}:Fault`, {
    children: [
      element(`${p}:Code`, {
        // One level of Subcode, as .NET and CXF send it (SOAP 1.2 allows them nested).
        children: [element(`${p}:Value`, { text: code }), element(`${p}:Subcode`, { occurs: OPTIONAL, children: [element(`${p}:Value`, { text: scalar('qname') })] })],
      }),
      element(`${p}:Reason`, { children: [element(`${p}:Text`, { attributes: [lang], text: scalar('string') })] }),
      element(`${p}:Node`, { occurs: OPTIONAL, text: scalar('anyURI') }),
      element(`${p}:Role`, { occurs: OPTIONAL, text: scalar('anyURI') }),
      detail === null ? element(`${p}:Detail`, { occurs: OPTIONAL, text: ANYTHING }) : element(`${p}:Detail`, { children: [...detail, moreDetail()] }),
    ],
  });
}

/**
 * Detail entries after the declared ones, any number, not checked: SOAP 1.1 (4.4) and 1.2 (5.4.5) let a
 * detail hold several entries, and stacks add their own beside the declared fault (Axis 1.4 sends
 * `stackTrace` and `hostname` with every fault). Written `<specmatic_any specmatic_occurs="multiple"
 * processContents="lax"/>`; a stub leaves it out, as it leaves out every optional wildcard.
 */
function moreDetail(): XmlWildcardPattern {
  return { kind: 'xml-any', occurs: MULTIPLE, namespace: '##any', processContents: 'lax' };
}

/**
 * The codes a generated fault carries, qualified with the importer's envelope prefix: SOAP 1.1's
 * Client and Server (WS-I BP R1004 prefers SOAP's own codes), SOAP 1.2's five (part 1, 5.4.6).
 * Generation draws one; matching compares a code by its namespace and local name, whatever its
 * prefix, and accepts what SOAP allows beyond them (pattern/soap-fault.ts).
 */
export function faultCodeType(v: SoapVersion): { name: string; pattern: Pattern } {
  const p = ENVELOPE_PREFIX;
  const name = v === '1.1' ? 'SoapFaultCode' : 'Soap12FaultCode';
  const locals = v === '1.1' ? ['Client', 'Server'] : ['Sender', 'Receiver'];
  return { name, pattern: { kind: 'enum', name, base: 'qname', values: locals.map((l) => `${p}:${l}`) } };
}
