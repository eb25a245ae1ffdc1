import { readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { loadContract, parseContractCached } from '../contract/load';
import type { Contract } from '../contract/model';
import { AccordError, gather, throwGathered } from '../errors';
import { ioError, isLink } from '../files';

/** What a stub can be given: `.spec` (or `.wsdl`) files, folders holding `.spec` files, or contracts already parsed. */
export type ContractSource = string | Contract;

/**
 * Every contract the sources name, parsed once at start-up. Folders are searched
 * recursively (skipping node_modules and hidden folders, not following symlinked
 * folders so a loop cannot hang start-up), in sorted order so the first of two
 * overlapping scenarios is the same on every machine. All parse errors are
 * reported together: a stub silently missing half a contract is worse than none.
 * A WSDL given that can be imported only in part is refused (its nodes would be (anything), answering
 * and accepting anything) unless `allowUnresolved`; then `warn` is told, a line each, what it could
 * not import and each node that is (anything).
 */
export function loadContracts(sources: readonly ContractSource[], warn?: (line: string) => void, options: { allowUnresolved?: boolean } = {}): Contract[] {
  const contracts: Contract[] = [];
  const errors: AccordError[] = [];
  // `accord stub contracts/ contracts/soap/x.spec` names x.spec twice: it is served once.
  const seen = new Set<string>();
  for (const source of sources) {
    if (typeof source !== 'string') {
      contracts.push(source);
      continue;
    }
    let files: string[];
    try {
      files = specFiles(source);
    } catch (e) {
      if (!(e instanceof AccordError)) throw e;
      errors.push(e);
      continue;
    }
    for (const file of files) {
      const key = path.resolve(file);
      if (seen.has(key)) continue;
      seen.add(key);
      try {
        contracts.push(isWsdl(file) ? loadWsdlContract(file, warn, options.allowUnresolved === true) : loadContract(file));
      } catch (e) {
        gather(errors, e);
      }
    }
  }
  throwGathered(errors);
  return contracts;
}

function isWsdl(file: string): boolean {
  return /\.wsdl$/i.test(file);
}

/**
 * A WSDL named on the command line is served as the contract `accord import wsdl` would write
 * for it, but with every SOAP port (SOAP 1.1 and 1.2 alike, each at its path: what `?wsdl`
 * advertises is served), imported in memory: Specmatic users stub
 * WSDLs directly. Line numbers in reports are those of that contract. The importer (and its
 * DOM) is loaded only when a WSDL is given.
 */
function loadWsdlContract(file: string, warn: ((line: string) => void) | undefined, allowUnresolved: boolean): Contract {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (see above)
  const { holeLines, importWsdl, isPartial, PARTIAL_HINT, partialLines } = require('../wsdl') as typeof import('../wsdl');
  const { text, summary } = importWsdl(file, { everyPort: true });
  if (isPartial(summary) && !allowUnresolved) {
    throw new AccordError(
      'ACCORD_ERR_WSDL',
      'can only be imported in part; not served:',
      { file: shownFile(file) },
      { details: [...partialLines(summary, shownFile), PARTIAL_HINT] },
    );
  }
  if (warn) for (const line of [...partialLines(summary, shownFile), ...holeLines(summary, shownFile).map((l) => `warning: ${l}`)]) warn(line);
  return parseContractCached(text, file);
}

/** A file as a user who started the stub here would name it. */
function shownFile(file: string): string {
  const r = path.relative(process.cwd(), file);
  return r.startsWith('..') || path.isAbsolute(r) ? file : r;
}

function specFiles(source: string): string[] {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(source).isDirectory();
  } catch (e) {
    // A dangling link is read, so that the reader says where it points.
    if (isLink(source)) return [source];
    throw ioError(e, source, 'contract');
  }
  if (!isDirectory) return [source];
  const found: string[] = [];
  walk(source, found);
  if (found.length === 0) throw new AccordError('ACCORD_ERR_USAGE', `no .spec contracts found in folder ${source}`, { file: source });
  return found;
}

function walk(dir: string, out: string[]): void {
  contractFolders(dir, (folder, entries) => {
    // A symlinked contract file is served like any other (the reader checks what it points to); symlinked folders are not entered.
    for (const e of entries) if ((e.isFile() || e.isSymbolicLink()) && e.name.endsWith('.spec')) out.push(path.join(folder, e.name));
  });
}

/**
 * Visits `dir` and the folders under it that can hold contracts, in sorted
 * order: hidden folders and node_modules are skipped, symlinked folders not
 * followed (a Dirent of a link is not a directory), so a loop cannot hang.
 * The stub's search and its --watch share this rule.
 */
export function contractFolders(dir: string, visit: (folder: string, entries: Dirent[]) => void): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  visit(dir, entries);
  for (const e of entries) {
    if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) contractFolders(path.join(dir, e.name), visit);
  }
}
