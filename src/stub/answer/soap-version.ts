import { AccordError } from '../../errors';
import type { ParsedBody } from '../../http/body';
import { SOAP11_ENVELOPE, SOAP12_ENVELOPE } from '../../http/message';
import { resolve } from '../../pattern/resolve';
import type { Pattern, Scope } from '../../pattern/types';

/**
 * The SOAP version of an envelope, by its namespace: matching compares local names only, so a
 * SOAP 1.2 envelope would fit a SOAP 1.1 scenario; dispatch and expectations compare versions first.
 */
export type SoapVersion = '1.1' | '1.2';

/** A request body pattern that is a SOAP Envelope: its version, by the namespace the pattern declares for it. */
export function soapVersionOfPattern(body: Pattern | undefined, scope: Scope): SoapVersion | undefined {
  if (!body) return undefined;
  let root: Pattern;
  try {
    root = resolve(body, scope);
  } catch (e) {
    if (e instanceof AccordError) return undefined;
    throw e;
  }
  if (root.kind !== 'xml' || root.local !== 'Envelope') return undefined;
  const uri = root.namespaces.find((n) => n.name === (root.prefix ? `xmlns:${root.prefix}` : 'xmlns'))?.value;
  return uri === SOAP11_ENVELOPE ? '1.1' : uri === SOAP12_ENVELOPE ? '1.2' : undefined;
}

export const NOT_SOAP = 'not SOAP';

/** The SOAP version of a body's envelope; NOT_SOAP for any other body (then the full match decides). */
export function soapVersionOfBody(body: ParsedBody): SoapVersion | typeof NOT_SOAP {
  const xml = body.asXml();
  if (xml instanceof AccordError || xml.local !== 'Envelope') return NOT_SOAP;
  const want = xml.prefix ? `xmlns:${xml.prefix}` : 'xmlns';
  const uri = xml.attributes.find((a) => a.name === want)?.value;
  return uri === SOAP11_ENVELOPE ? '1.1' : uri === SOAP12_ENVELOPE ? '1.2' : NOT_SOAP;
}
