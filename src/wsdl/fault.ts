import type { Pattern, ScalarType, XmlElementPattern } from '../pattern/types';
import { OPTIONAL } from '../pattern/occurs';
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
 * nodes. The code and the reason are typed, not fixed: a service chooses them per fault (a
 * QName such as soap:Server, and its own words), and an Examples column may name them. The
 * optional parts SOAP defines (faultactor; Subcode, Node and Role) are optional nodes; the Reason
 * holds one Text (SOAP 1.2 allows one per language).
 * `detail` is null for a fault with no message content: any detail, or none, is accepted then.
 */
export function faultElement(v: SoapVersion, detail: XmlElementPattern[] | null): XmlElementPattern {
  const p = ENVELOPE_PREFIX;
  if (v === '1.1') {
    // faultcode, faultstring, faultactor and detail are unqualified (SOAP 1.1, 4.4); .NET adds xml:lang to faultstring.
    const lang = { name: 'xml:lang', local: 'lang', optional: true, pattern: scalar('language') };
    return element(`${p}:Fault`, {
      children: [
        element('faultcode', { text: scalar('qname') }),
        element('faultstring', { attributes: [lang], text: scalar('string') }),
        element('faultactor', { occurs: OPTIONAL, text: scalar('anyURI') }),
        detail === null ? element('detail', { occurs: OPTIONAL, text: ANYTHING }) : element('detail', { children: detail }),
      ],
    });
  }
  // SOAP 1.2 requires xml:lang on Text; servers leave it out (the soap package does), so a test accepts that.
  const lang = { name: 'xml:lang', local: 'lang', optional: true, pattern: scalar('language') };
  return element(`${p}:Fault`, {
    children: [
      element(`${p}:Code`, {
        // One level of Subcode, as .NET and CXF send it (SOAP 1.2 allows them nested).
        children: [element(`${p}:Value`, { text: scalar('qname') }), element(`${p}:Subcode`, { occurs: OPTIONAL, children: [element(`${p}:Value`, { text: scalar('qname') })] })],
      }),
      element(`${p}:Reason`, { children: [element(`${p}:Text`, { attributes: [lang], text: scalar('string') })] }),
      element(`${p}:Node`, { occurs: OPTIONAL, text: scalar('anyURI') }),
      element(`${p}:Role`, { occurs: OPTIONAL, text: scalar('anyURI') }),
      detail === null ? element(`${p}:Detail`, { occurs: OPTIONAL, text: ANYTHING }) : element(`${p}:Detail`, { children: detail }),
    ],
  });
}
