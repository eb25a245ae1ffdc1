import { excerpt, printable } from '../printable';
import type { ImportSummary } from './import';

/** Notes listed under a summary; more are only counted. */
const NOTES_SHOWN = 8;
/** Declarations not found named in the one line that lists them; more are only counted. */
const MISSING_SHOWN = 4;

/** Whether part of the WSDL was not read: an import not loaded, or a declaration used and not found (its nodes are `(anything)`). */
export function isPartial(s: Pick<ImportSummary, 'unresolved' | 'missing'>): boolean {
  return s.unresolved.length > 0 || s.missing.length > 0;
}

/**
 * Why an import is partial, printable, for every command that reads a WSDL: one line per
 * import not loaded (`greeter.wsdl:13: import ./xsd/header.xsd not loaded (no such file): …`),
 * then one line naming the declarations not found. Empty for a whole import.
 */
export function partialLines(s: Pick<ImportSummary, 'file' | 'unresolved' | 'missing'>, shown: (file: string) => string): string[] {
  const lines = s.unresolved.map(
    (u) =>
      `${printable(shown(u.file), { multiline: false })}${u.line ? `:${u.line}` : ''}: import ${excerpt(u.location)} not loaded (${printable(u.reason, { multiline: false })}${u.looked === undefined ? '' : `, looked for at ${printable(shown(u.looked), { multiline: false })}`}): what it declares is typed (anything)`,
  );
  if (s.missing.length > 0) {
    const n = s.missing.length;
    const named = s.missing.slice(0, MISSING_SHOWN).map((m) => excerpt(m, 200));
    const more = n > MISSING_SHOWN ? `, and ${n - MISSING_SHOWN} more` : '';
    lines.push(
      `${printable(shown(s.file), { multiline: false })}: ${n} declaration${n === 1 ? '' : 's'} not found, the nodes ${n === 1 ? 'it types are' : 'they type are'} (anything): ${named.join(', ')}${more}`,
    );
  }
  return lines;
}

/** Said after a partial import's lines when it is refused: what to do about it. */
export const PARTIAL_HINT =
  'put each file where it was looked for, or import the WSDL by its URL (`accord import wsdl <URL>` fetches what it imports and writes it beside the contract); --allow-unresolved accepts the rest as (anything), which takes any content';

/**
 * One line per node written (anything) because its declaration was not found, for a
 * partial import accepted with `--allow-unresolved`: such a node checks nothing, and must not go unsaid.
 */
export function holeLines(s: Pick<ImportSummary, 'file' | 'holes'>, shown: (file: string) => string): string[] {
  const file = printable(shown(s.file), { multiline: false });
  return s.holes.map(
    (h) => `${file}: ${h.node === undefined ? 'a node' : `node ${excerpt(h.node, 100)}`} is (anything), accepting any content: ${excerpt(h.subject, 200)} not found`,
  );
}

/**
 * What a WSDL import wrote and what it could not, as lines for the person who
 * ran it. The imports not loaded are counted here and said by `partialLines` (on standard error).
 */
export function describeImport(s: ImportSummary): string[] {
  const parts = [
    `${s.operations} operation${s.operations === 1 ? '' : 's'}`,
    ...(s.faults ? [`${s.faults} fault${s.faults === 1 ? '' : 's'}`] : []),
    `${s.scenarios} scenario${s.scenarios === 1 ? '' : 's'}`,
    `${s.types} type${s.types === 1 ? '' : 's'}`,
    `SOAP ${s.soapVersions.join(' and ')}`,
  ];
  if (s.anything) parts.push(`${s.anything} node${s.anything === 1 ? '' : 's'} marked (anything)`);
  if (s.unresolved.length) parts.push(`${s.unresolved.length} import${s.unresolved.length === 1 ? '' : 's'} unresolved`);
  if (s.skipped.length) parts.push(`${s.skipped.length} skipped`);
  const lines = [`${s.feature}: ${parts.join(', ')}`];
  for (const c of s.choices) lines.push(`  ${c}`);
  if (s.defaultPath) lines.push(`  no usable port address for some operations: they are posted to ${s.defaultPath}`);
  for (const k of s.skipped) lines.push(`  skipped ${k}`);
  // Every clause a policy asks and the contract does not carry: a provider will refuse what the tests send without them.
  for (const u of s.unsupportedPolicy ?? []) lines.push(`  policy not in the contract: ${printable(u, { multiline: false })}`);
  for (const n of s.notes.slice(0, NOTES_SHOWN)) lines.push(`  note: ${n}`);
  if (s.notes.length > NOTES_SHOWN) lines.push(`  ... and ${s.notes.length - NOTES_SHOWN} more notes`);
  return lines;
}
