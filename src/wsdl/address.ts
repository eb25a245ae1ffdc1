/**
 * The request line's target for a port's address: its path, with a trailing
 * slash kept (`http://host/2.0/` → `/2.0/`: many servers answer `/2.0` with a
 * redirect or a 404) and its query string kept as literal query parameters
 * (`/service.php?ver=2` → `/service.php?ver=2`), except a bare `?wsdl`, which
 * names the WSDL, not the service. Undefined when there is no address to use.
 */
export function addressPath(location: string): string | undefined {
  const loc = location.trim();
  if (loc === '' || loc === 'url' || loc === 'REPLACE_WITH_ACTUAL_URL') return undefined;
  let url: URL;
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(loc)) url = new URL(loc);
    else if (loc.startsWith('/')) url = new URL(loc, 'http://host');
    else return undefined;
  } catch {
    return undefined;
  }
  let path = url.pathname;
  try {
    path = decodeURI(path);
  } catch {
    /* keep it encoded */
  }
  // The contract's path syntax gives "(" a meaning; such paths are rare enough to fall back.
  if (/[()\s]/.test(path)) return undefined;
  return (path === '' ? '/' : path) + queryOf(url.searchParams);
}

/** `?a=1&b=x`, each name and value percent-encoded so that none reads as a placeholder; '' for none or a bare `wsdl`/`WSDL`. */
function queryOf(params: URLSearchParams): string {
  const pairs = [...params].filter(([name, value]) => !(value === '' && name.toLowerCase() === 'wsdl'));
  if (pairs.length === 0) return '';
  const enc = (s: string) => encodeURIComponent(s).replaceAll('(', '%28').replaceAll(')', '%29');
  return '?' + pairs.map(([name, value]) => `${enc(name)}=${enc(value)}`).join('&');
}
