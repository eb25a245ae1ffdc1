/** The path of a port's address (`http://host:8080/ws/Calc?wsdl` → `/ws/Calc`); undefined when there is none to use. */
export function addressPath(location: string): string | undefined {
  const loc = location.trim();
  if (loc === '' || loc === 'url' || loc === 'REPLACE_WITH_ACTUAL_URL') return undefined;
  let path: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(loc)) {
    try {
      path = new URL(loc).pathname;
    } catch {
      return undefined;
    }
  } else if (loc.startsWith('/')) path = loc.split(/[?#]/)[0];
  else return undefined;
  try {
    path = decodeURI(path);
  } catch {
    /* keep it encoded */
  }
  // The contract's path syntax gives "(" a meaning; such paths are rare enough to fall back.
  if (/[()\s]/.test(path)) return undefined;
  return path === '' ? '/' : path;
}
