import type { Mismatch } from './mismatch';

/**
 * Matching: pure functions from (pattern, value) to the list of every mismatch.
 * Paths inside a body are relative ("Envelope/Body/getPet/id", "pets[0].name");
 * `prefixPaths` puts "RESPONSE.BODY" and the like in front.
 *
 * `limit` (XML and JSON bodies): stop comparing once about that many mismatches are
 * found. A report shows the first 50; listing every one of a 10 MB wrong body's
 * 200,000 mismatches cost seconds and hundreds of MB only to be thrown away. The
 * count may pass the limit a little (one element's attributes are checked together).
 */
export function prefixPaths(prefix: string, mismatches: Mismatch[]): Mismatch[] {
  return mismatches.map((m) => ({ ...m, path: m.path ? `${prefix} ${m.path}` : prefix }));
}

// Split by kind: text and JSON values (match-value.ts, one file because each holds the other: JSON carried
// in a header or form field, text inside JSON) and XML documents (match-xml.ts, whose leaves are text).
export { matchJson, matchText } from './value';
export { contentWords, matchXml, type Slot } from './xml';
