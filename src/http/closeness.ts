import type { Mismatch } from '../pattern/match/mismatch';

/**
 * How far into a message a scenario got before it disagreed: the depth of its
 * shallowest body mismatch (`where` is REQUEST.BODY or RESPONSE.BODY). A SOAP
 * request for another operation differs at `Envelope/Body`; one with a bad
 * field differs at `Envelope/Body/op/field`, deeper, so that scenario is the
 * one the user meant. Header-only or path-only differences mean the body was
 * right: closest of all. The stub's 400 report and `accord validate` rank by it.
 */
export function closeness(mismatches: readonly Mismatch[], where: string): number {
  let shallowest = Infinity;
  for (const m of mismatches) {
    if (!m.path.startsWith(where)) continue;
    const rest = m.path.slice(where.length).trim();
    const depth = rest === '' ? 0 : rest.split(/[/.[]/).length;
    if (depth < shallowest) shallowest = depth;
  }
  return shallowest;
}
