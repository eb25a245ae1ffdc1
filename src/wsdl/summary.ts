import type { ImportSummary } from './import';

/** Notes listed under a summary; more are only counted. */
const NOTES_SHOWN = 8;

/**
 * What a WSDL import wrote and what it could not, as lines for the person who
 * ran it; `shown` says how a local file's name is printed (relative to where they are).
 */
export function describeImport(s: ImportSummary, shown: (file: string) => string): string[] {
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
  for (const u of s.unresolved) lines.push(`  unresolved ${u.location} (${shown(u.file)}${u.line ? `:${u.line}` : ''}): ${u.reason}`);
  for (const k of s.skipped) lines.push(`  skipped ${k}`);
  for (const n of s.notes.slice(0, NOTES_SHOWN)) lines.push(`  note: ${n}`);
  if (s.notes.length > NOTES_SHOWN) lines.push(`  ... and ${s.notes.length - NOTES_SHOWN} more notes`);
  return lines;
}
