/**
 * A request target (`/pets/1?name=a%20b&tag=x`) as its path and its query parameters, decoded as
 * URLSearchParams decodes them (`+` a space, repeated names kept in order). The path is everything
 * before the first `?`, as written. One function, so the stub's matcher, its API, its `?wsdl` answers
 * and example files cannot read one target differently.
 */
export function splitTarget(target: string): { path: string; query: [string, string][] } {
  const q = target.indexOf('?');
  if (q < 0) return { path: target, query: [] };
  return { path: target.slice(0, q), query: [...new URLSearchParams(target.slice(q + 1))] };
}

/** Whether `text` is an absolute http:// or https:// URL with a host (a base URL, a token URL). */
export function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}
