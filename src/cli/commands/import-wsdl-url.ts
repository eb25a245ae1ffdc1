import { lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { excerpt, printable } from '../../printable';
import { writeOutputFile } from '../../files';
import { asUsage, EXIT_USAGE, ExitError, type Io } from '../exit';

/**
 * A WSDL given by URL (`accord import wsdl http://host/orders?wsdl`): it and every document it
 * imports, includes or redefines are fetched (wsdl/fetch.ts, bounded, the WSDL's origin only unless
 * `--allow-origin`), written into a temporary folder with their references rewritten to each other,
 * and imported from there like local files. The caller copies them beside the contract
 * (`placeFetched`) once the import is accepted, or removes the folder.
 */
export interface FetchedWsdl {
  /** The temporary folder holding the files. */
  dir: string;
  /** The WSDL's path in it. */
  wsdl: string;
  files: { name: string; url: string; text: string }[];
}

/** The characters of an HTTP header name (RFC 9110 token). */
const TOKEN = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export interface UrlOptions {
  allowOrigin?: string[];
  header?: string[];
  allowUnresolved?: boolean;
}

/** Commander's collector for a repeatable option. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export async function fetchWsdlFiles(url: string, opts: UrlOptions, command: string, io: Io, refused = 'nothing written'): Promise<FetchedWsdl> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a WSDL by URL
  const { fetchWsdlSet } = require('../../wsdl/fetch') as typeof import('../../wsdl/fetch');
  const origins = (opts.allowOrigin ?? []).map((o) => {
    try {
      const u = new URL(o);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError();
      return u.origin;
    } catch {
      throw new ExitError(EXIT_USAGE, `${command}: --allow-origin ${printable(o, { multiline: false })}: not an http or https origin (such as https://schemas.example.com)`);
    }
  });
  const headers: Record<string, string> = {};
  for (const h of opts.header ?? []) {
    const colon = h.indexOf(':');
    const name = colon > 0 ? h.slice(0, colon) : '';
    if (name === '' || [...name].some((c) => !TOKEN.includes(c))) throw new ExitError(EXIT_USAGE, `${command}: --header must be "Name: value", found ${excerpt(name || h, 40)}`);
    // The value is not repeated anywhere: it may be a credential.
    headers[name.toLowerCase()] = h.slice(colon + 1).trim();
  }
  const got = await fetchWsdlSet(url, { origins, headers });
  if ('why' in got) throw new ExitError(EXIT_USAGE, `${command}: ${printable(got.why, { multiline: false })}`);
  if (got.notFetched.length > 0) {
    const lines = got.notFetched.map(
      (n) =>
        `${n.from}${n.line ? `:${n.line}` : ''}: import ${excerpt(n.location)} not fetched${n.url && n.url !== n.location ? ` (${excerpt(n.url)})` : ''}: ${printable(n.reason, { multiline: false })}`,
    );
    if (!opts.allowUnresolved) {
      const head = `${command}: ${printable(url, { multiline: false })} can only be imported in part; ${refused}:`;
      const hint = `  what an import not fetched declares would be (anything), which takes any content: allow its origin with --allow-origin, or accept that with --allow-unresolved`;
      throw new ExitError(EXIT_USAGE, [head, ...lines.map((l) => `  ${l}`), hint].join('\n'));
    }
    io.stderr(lines.map((l) => `${command}: warning: ${l}\n`).join(''));
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-wsdl-'));
  for (const f of got.files) writeFileSync(path.join(dir, f.name), f.text, { mode: 0o600 });
  return { dir, wsdl: path.join(dir, got.files[0].name), files: got.files };
}

/**
 * Copies the fetched files into `folder` (beside the contract). A file already there with other
 * content is a user's file: replaced only with `force`, else nothing is written (exit 2). A symlink is
 * never written through.
 */
export function checkPlaceable(fetched: FetchedWsdl, folder: string, force: boolean | undefined, command: string, shown: (f: string) => string): void {
  for (const f of fetched.files) {
    const to = path.join(folder, f.name);
    let st;
    try {
      st = lstatSync(to);
    } catch {
      continue;
    }
    const same = st.isFile() && readFileSync(to, 'utf8') === f.text;
    if (!same && !force)
      throw new ExitError(
        EXIT_USAGE,
        `${command}: ${shown(to)} exists${st.isSymbolicLink() ? ' (a symlink)' : ' with other content'}; the fetched ${f.name} would replace it: --force replaces it, or --output a contract in another folder`,
      );
  }
}

export function placeFetched(fetched: FetchedWsdl, folder: string, command: string): string[] {
  return fetched.files.map((f) => {
    const to = path.join(folder, f.name);
    // Never through a link: a link there is replaced by the file (checkPlaceable asked for --force).
    asUsage(command, () => writeOutputFile(to, f.text, { force: true }));
    return to;
  });
}

export function removeFetched(fetched: FetchedWsdl | undefined): void {
  if (fetched) rmSync(fetched.dir, { recursive: true, force: true });
}
