import { printable } from './printable';

/*
 * Text from input escaped for the CI report formats, the one home for `accord compatible`'s and
 * `accord proxy --check`'s JUnit XML and GitHub workflow commands: made printable first (a
 * contract or the traffic must not write escape sequences into a CI log), then escaped for the
 * format.
 */

/** One line of text from input: control characters, line ends and bidi marks escaped. */
export function oneLine(text: string): string {
  return printable(text, { multiline: false });
}

/** Text for JUnit XML: escaped for markup; inside an element (`multiline`) line ends are kept. */
export function xmlText(text: string, multiline = false): string {
  return printable(text, { multiline }).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&apos;');
}

/** ` name="value"…` for the values given; strings escaped, numbers as they are. */
export function xmlAttrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${typeof v === 'number' ? v : xmlText(v!)}"`)
    .join('');
}

/** Message text of a workflow command: `%`, CR and LF are the command's own escapes; other controls are escaped as accord shows them. */
export function ghData(text: string): string {
  return oneLine(text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A'));
}

/** A property value (`file=`, `title=`): also `:` and `,`, which end a property. */
export function ghProperty(text: string): string {
  return ghData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/** `::error file=…,line=…,title=…::message`: one GitHub workflow command, properties without a value left out. */
export function ghCommand(level: 'error' | 'notice', props: Record<string, string | number | undefined>, message: string): string {
  const p = Object.entries(props)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'number' ? v : ghProperty(v!)}`)
    .join(',');
  return `::${level}${p ? ` ${p}` : ''}::${ghData(message)}`;
}
