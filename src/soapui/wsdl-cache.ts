import { createHash } from 'node:crypto';
import { AccordError } from '../errors';
import { parseDom } from '../wsdl/dom';
import { fileName } from '../wsdl/fetch';
import { isUrl } from '../wsdl/load';
import { rewriteLocations, serializeDocument } from '../wsdl/locations';
import type { SoapuiInterface } from './model';

const WSDL_TYPE = 'http://schemas.xmlsoap.org/wsdl/';

/**
 * The WSDL documents an interface was built from, as SoapUI cached them in the project
 * (`con:definitionCache`, one `con:part` per document, each with the URL it was read from), turned
 * into files of one folder with their imports pointing at each other: what `accord import wsdl`
 * then reads. Imports are resolved against the parts' URLs, with Windows separators
 * (`file:\C:\x\b.xsd`) read as slashes; one that names no cached part is left as written (the
 * importer reports it). Pure: the caller writes the files.
 */
export interface WsdlDocuments {
  /** The file names and texts; `files[0]` is the WSDL. */
  files: { name: string; text: string }[];
  /** The root part's URL as the project has it (what the contract names as its source). */
  url: string;
  /** Same WSDL, same key: interfaces of one WSDL (its SOAP 1.1 and 1.2 bindings) share a contract. */
  key: string;
}

export type CacheResult = { ok: true; docs: WsdlDocuments } | { ok: false; why: string };

export function cachedWsdl(i: SoapuiInterface): CacheResult {
  const parts = i.parts.filter((p) => p.content.trim() !== '');
  if (parts.length === 0) return { ok: false, why: 'no cached WSDL' };
  const rootUrl = i.rootPart && parts.some((p) => p.url === i.rootPart) ? i.rootPart : (parts.find((p) => p.type === WSDL_TYPE) ?? parts[0]).url;
  const ordered = [...parts.filter((p) => p.url === rootUrl).slice(0, 1), ...parts.filter((p) => p.url !== rootUrl)];
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const p of ordered) {
    const key = normalised(p.url);
    if (names.has(key)) continue;
    const ext = p.type === WSDL_TYPE ? 'wsdl' : 'xsd';
    const name = fileName(asUrl(key), ext, taken);
    taken.add(name.toLowerCase());
    names.set(key, name);
  }
  const files: { name: string; text: string }[] = [];
  const seen = new Set<string>();
  for (const p of ordered) {
    const key = normalised(p.url);
    if (seen.has(key)) continue;
    seen.add(key);
    const name = names.get(key)!;
    let doc;
    try {
      doc = parseDom(p.content, name);
    } catch (e) {
      if (!(e instanceof AccordError)) throw e;
      return { ok: false, why: `the cached ${p.url} is not XML: ${e.message}` };
    }
    rewriteLocations(doc, {
      address: () => undefined,
      reference: (value) => {
        const target = resolveAgainst(value.trim(), key);
        return target !== undefined ? names.get(target) : undefined;
      },
    });
    files.push({ name, text: serializeDocument(doc) });
  }
  const hash = createHash('sha256');
  for (const f of files) hash.update(f.name).update('\0').update(f.text).update('\0');
  return { ok: true, docs: { files, url: rootUrl, key: hash.digest('hex') } };
}

/** `file:\C:\x\a.wsdl` → `file:/C:/x/a.wsdl`; a relative path (`WSDL-WADL/a.wsdl`) stays relative, with slashes. */
export function normalised(url: string): string {
  let u = url.trim().split('\\').join('/');
  if (driveLetter(u)) u = `file:/${u}`;
  try {
    return isAbsolute(u) ? new URL(u).href : new URL(u, RELATIVE_BASE).href;
  } catch {
    return u;
  }
}

/** Relative part URLs are resolved inside a made-up base, so `../x.xsd` from `a/b.wsdl` still names one part. */
const RELATIVE_BASE = 'file:///soapui-relative/';

function isAbsolute(u: string): boolean {
  return isUrl(u);
}

/** `C:/…`: a Windows path, not a URL with scheme `c`. */
function driveLetter(u: string): boolean {
  const c = u.charAt(0).toLowerCase();
  return c >= 'a' && c <= 'z' && u.charAt(1) === ':' && u.charAt(2) === '/';
}

function asUrl(key: string): URL {
  try {
    return new URL(key);
  } catch {
    return new URL('file:///document');
  }
}

function resolveAgainst(location: string, base: string): string | undefined {
  try {
    return new URL(location.split('\\').join('/'), base).href;
  } catch {
    return undefined;
  }
}
