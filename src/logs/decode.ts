import { AccordError } from '../errors';
import { HTTP_METHODS } from '../contract/model';
import { parseXml } from '../xml/parse';
import type { XmlElement } from '../xml/tree';
import { findEnvelopeStart, soapParts } from './envelope';
import type { LoggedMessage } from './message';
import { readJson } from '../json/parse';

/** A logged message with its body parsed once: what pairing and merging read. */
export interface DecodedMessage extends LoggedMessage {
  format: 'xml' | 'json' | 'none';
  xml?: XmlElement;
  json?: unknown;
  /** Local name of the element inside the SOAP Body. */
  operation?: string;
  fault: boolean;
  echo?: DecodedMessage;
}

export type Decoded = { ok: DecodedMessage } | { problem: AccordError } | { skip: string };

/**
 * Parses a message's body: XML through accord's parser (no DTD, bounded), JSON
 * with JSON.parse. Errors point at the line in the log where the body's
 * offending line is.
 */
export function decodeMessage(m: LoggedMessage): Decoded {
  // A method the contract language cannot write would make a contract accord cannot read back.
  if (m.method !== undefined && !HTTP_METHODS.has(m.method.toUpperCase())) {
    return { problem: new AccordError('ACCORD_ERR_LOG', `the logged ${m.direction} has the HTTP method "${m.method}", not one of ${[...HTTP_METHODS].join(', ')}`, m.at) };
  }
  if (m.status !== undefined && !(Number.isInteger(m.status) && m.status >= 100 && m.status <= 599)) {
    return { problem: new AccordError('ACCORD_ERR_LOG', `the logged ${m.direction} has the status ${m.status}, not an HTTP status code from 100 to 599`, m.at) };
  }
  const text = m.body.trim();
  if (text === '') return { ok: decoded(m, m.direction, 'none', false) };
  if (text.startsWith('<')) {
    let xml: XmlElement;
    try {
      xml = parseXml(text);
    } catch (e) {
      if (!(e instanceof AccordError)) throw e;
      // A proxy's HTML error page in a recording is not a broken envelope.
      if (m.shape === 'har' && !findEnvelopeStart(text)) return { skip: 'HAR entries with a body that is not a SOAP envelope' };
      const line = m.at.line + Math.max(0, (e.location.line ?? 1) - 1);
      return { problem: new AccordError('ACCORD_ERR_XML', `the logged ${m.direction} is not well-formed XML: ${e.message}`, { file: m.at.file, line }) };
    }
    const parts = soapParts(xml);
    if (!parts.body || !parts.operation) {
      if (m.shape === 'har' || m.shape === 'cxf') return { skip: `${m.shape === 'har' ? 'HAR entries' : 'CXF messages'} with XML that is not a SOAP envelope` };
      return { problem: new AccordError('ACCORD_ERR_LOG', `a SOAP envelope without a Body holding an element (<${xml.name}>)`, m.at) };
    }
    let direction = m.direction;
    if (m.unhinted) direction = parts.fault || /Response$/.test(parts.operation.local) ? 'response' : 'request';
    return { ok: decoded(m, direction, 'xml', parts.fault, xml, undefined, parts.operation.local) };
  }
  const read = readJson(text);
  if ('value' in read) return { ok: decoded(m, m.direction, 'json', false, undefined, read.value) };
  if (m.shape === 'cxf' && read.syntax) return { skip: 'CXF messages whose payload is neither XML nor JSON' };
  return { problem: new AccordError('ACCORD_ERR_JSON', `the logged ${m.direction} is ${read.problem}`, m.at) };
}

/**
 * The decoded message, every field written out: one object shape for every extractor's messages
 * (spreading the differently shaped messages cost more than a third of the XML parse).
 */
function decoded(
  m: LoggedMessage,
  direction: LoggedMessage['direction'],
  format: DecodedMessage['format'],
  fault: boolean,
  xml?: XmlElement,
  json?: unknown,
  operation?: string,
): DecodedMessage {
  return {
    direction,
    shape: m.shape,
    body: m.body,
    at: m.at,
    id: m.id,
    method: m.method,
    path: m.path,
    query: m.query,
    status: m.status,
    headers: m.headers,
    unhinted: m.unhinted,
    echo: undefined,
    format,
    xml,
    json,
    operation,
    fault,
  };
}
