import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The shared WSDL corpus, read in place (never copied into this repository). */
export const CORPUS = path.resolve(__dirname, '..', '..', '..', 'shared', 'wsdl-corpus');

export interface CorpusEntry {
  folder: string;
  mainFile: string;
  file: string;
  wsdlVersion: string;
  soap: string;
  style: string;
  features: string;
}

export function corpusEntries(): CorpusEntry[] {
  const lines = readFileSync(path.join(CORPUS, 'INDEX.tsv'), 'utf8').trim().split('\n');
  const header = lines[0].split('\t');
  const col = (name: string) => header.indexOf(name);
  return lines.slice(1).map((l) => {
    const c = l.split('\t');
    return {
      folder: c[col('folder')],
      mainFile: c[col('main_file')],
      file: path.join(CORPUS, c[col('folder')], c[col('main_file')]),
      wsdlVersion: c[col('wsdl_version')],
      soap: c[col('soap')],
      style: c[col('style')],
      features: c[col('notable_features')],
    };
  });
}

export function corpusFile(folder: string): string {
  const e = corpusEntries().find((x) => x.folder === folder);
  if (!e) throw new Error(`no corpus folder ${folder}`);
  return e.file;
}
