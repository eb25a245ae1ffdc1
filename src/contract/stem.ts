/**
 * A contract file's path without its extension (`.spec` or `.wsdl`, any case): the stem the
 * folders beside it are named from, `<stem>_examples` and `<stem>_data` (example files),
 * `<stem>_consumers` (consumers' examples). Another name is kept whole.
 */
export function contractStem(file: string): string {
  const end = file.slice(-5).toLowerCase();
  return end === '.spec' || end === '.wsdl' ? file.slice(0, -5) : file;
}
