import type { Mismatch } from './mismatch';
import { shown } from './mismatch';
import { resolve } from '../resolve';
import type { Pattern, Scope } from '../types';
import { SOAP11_ENVELOPE, SOAP12_ENVELOPE } from '../../xml/bookkeeping';

/**
 * A SOAP fault's code is a QName whose prefix is the sender's choice (`S:Server` from JAX-WS,
 * `SOAP-ENV:Server` from PHP, `soap11env:Client.NotFound` from spyne), so it is judged by SOAP's
 * rules and by namespace and local name, never as text:
 * - SOAP 1.1 `faultcode`: a qualified name (WS-I Basic Profile R1004). In the envelope namespace
 *   it is one of SOAP's four, or one of them with a `.` extension (SOAP 1.1, 4.4.1:
 *   `Client.Authentication`); in another namespace it is the service's own code.
 * - SOAP 1.2 `Code/Value`: one of the five codes of SOAP 1.2 part 1, 5.4.6, in the envelope
 *   namespace (`Subcode/Value` carries a service's own codes and is matched as written).
 * A code in no namespace fits only a contract that names it exactly (namesExactly).
 * The contract's pattern then decides as an enumeration of names: a value there with the
 * same local name (or the name the dotted code extends) fits. The importer's own code types
 * (`SoapFaultCode`, `Soap12FaultCode`) list the codes a stub generates; for them, whatever
 * SOAP allows fits.
 */

export { SOAP11_ENVELOPE, SOAP12_ENVELOPE };
const CODES_11 = ['VersionMismatch', 'MustUnderstand', 'Client', 'Server'];
const CODES_12 = ['Sender', 'Receiver', 'MustUnderstand', 'VersionMismatch', 'DataEncodingUnknown'];
const IMPORTED = new Set(['SoapFaultCode', 'Soap12FaultCode']);

/**
 * A contract that names a code in no namespace exactly (an enumeration or literal of its own, as
 * `accord proxy` records pysimplesoap's `Server.OrderNotFound`) says the service sends that code:
 * it fits, and only it. A `(qname)` or `(string)`, or the importer's own code types, keep R1004.
 */
function namesExactly(pattern: Pattern, scope: Scope, text: string): boolean {
  if (text === '') return false;
  const p = resolve(pattern, scope);
  if (p.kind === 'enum') return !IMPORTED.has(p.name) && p.values.includes(text);
  return p.kind === 'literal' && String(p.value ?? '') === text;
}

/** Mismatches of a fault code's text; `namespaceOfPrefix` reads the declarations in scope at the element. */
export function matchFaultCode(
  version: '1.1' | '1.2',
  pattern: Pattern,
  text: string,
  scope: Scope,
  path: string,
  namespaceOfPrefix: (prefix: string) => string | undefined,
): Mismatch[] {
  const t = text.trim();
  const colon = t.indexOf(':');
  const rule =
    version === '1.1'
      ? 'a qualified fault code (WS-I Basic Profile R1004): soapenv:Client, soapenv:Server, soapenv:MustUnderstand, soapenv:VersionMismatch (optionally extended, Client.Auth), or a code in a namespace of the service'
      : 'a SOAP 1.2 fault code (part 1, 5.4.6): Sender, Receiver, MustUnderstand, VersionMismatch or DataEncodingUnknown, qualified with the SOAP 1.2 envelope namespace';
  if (colon <= 0) return namesExactly(pattern, scope, t) ? [] : [{ path, expected: rule, actual: `${shown(t)} (no prefix: not in any namespace)` }];
  const prefix = t.slice(0, colon);
  const local = t.slice(colon + 1);
  const uri = namespaceOfPrefix(prefix);
  if (uri === undefined) return [{ path, expected: rule, actual: `${shown(t)} (the prefix "${prefix}" is declared nowhere)` }];
  const base = local.split('.')[0];
  if (version === '1.2' && uri !== SOAP12_ENVELOPE) return [{ path, expected: rule, actual: `${shown(t)} (in the namespace ${uri})` }];
  if (version === '1.2' && !CODES_12.includes(local)) return [{ path, expected: rule, actual: shown(t) }];
  if (version === '1.1' && uri === SOAP11_ENVELOPE && !CODES_11.includes(base)) return [{ path, expected: rule, actual: shown(t) }];
  const p = resolve(pattern, scope);
  if (p.kind === 'enum' && IMPORTED.has(p.name)) return [];
  if (p.kind === 'scalar') return p.type === 'qname' || p.type === 'string' || p.type === 'token' ? [] : [{ path, expected: rule, actual: shown(t) }];
  const values = p.kind === 'enum' ? p.values : p.kind === 'literal' ? [String(p.value ?? '')] : undefined;
  if (values === undefined) return [];
  const fits = values.some((v) => {
    const vLocal = v.slice(v.indexOf(':') + 1);
    return vLocal === local || (version === '1.1' && vLocal === base);
  });
  return fits ? [] : [{ path, expected: `one of ${values.map((v) => shown(v)).join(', ')} (compared by local name)`, actual: shown(t) }];
}
