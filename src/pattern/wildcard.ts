import type { XmlWildcardPattern } from './types';

/*
 * An XSD wildcard's namespace list (`##any`, `##other`, `##local`, `##targetNamespace`, URIs):
 * what the XML pattern reader reads, the matcher and the generator judge by, and the WSDL
 * importer writes.
 */

/** XSD's namespace constraint of a wildcard; a namespace that cannot be told is allowed. */
export function wildcardAllows(w: Pick<XmlWildcardPattern, 'namespace' | 'targetNamespace'>, ns: string | undefined): boolean {
  if (ns === undefined) return true;
  const tns = w.targetNamespace ?? '';
  for (const token of words(w.namespace)) {
    if (token === '##any') return true;
    if (token === '##other') return ns !== '' && ns !== tns;
    if (token === '##local' ? ns === '' : token === '##targetNamespace' ? ns === tns : ns === token) return true;
  }
  return false;
}

/** A whitespace-separated list (XSD's `namespace` attribute), split without a regular expression. */
export function words(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (const ch of s) {
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out.length ? out : ['##any'];
}
