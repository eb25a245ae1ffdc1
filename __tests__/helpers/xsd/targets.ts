import { existsSync } from 'node:fs';
import path from 'node:path';
import { CORPUS, corpusEntries } from '../../wsdl/corpus';

/**
 * The WSDLs measured: every one of the shared corpus (read in place, when it
 * is beside the clone) and accord's own WSDL fixtures (always there).
 */
const FIXTURES = path.resolve(__dirname, '..', '..', 'fixtures');
const OWN = [path.join(FIXTURES, 'wsdl', 'features', 'features.wsdl'), path.join(FIXTURES, 'soap', 'petstore.wsdl')];

export interface Target {
  /** The corpus folder, or `fixture:<file>`. */
  name: string;
  file: string;
}

export function hasWsdlCorpus(): boolean {
  return existsSync(path.join(CORPUS, 'INDEX.tsv'));
}

export function wsdlTargets(): { targets: Target[]; corpusMissing?: string } {
  const own = OWN.map((file) => ({ name: `fixture:${path.basename(file)}`, file }));
  if (!hasWsdlCorpus()) return { targets: own, corpusMissing: CORPUS };
  return { targets: [...corpusEntries().map((e) => ({ name: e.folder, file: e.file })), ...own] };
}
