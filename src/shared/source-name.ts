/** Whether `s` can be a folder name of accord's own (a source's cache folder): letters, digits, ".", "_" and "-", not `.` or `..`. */
export function isSafeName(s: string): boolean {
  return s !== '.' && s !== '..' && [...s].every((c) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '.' || c === '_' || c === '-');
}

/** The repository's last path segment without `.git`: `git@host:team/contracts.git` → `contracts`; never its query (`?token=...`). */
export function defaultSourceName(url: string): string {
  const query = [url.indexOf('?'), url.indexOf('#')].filter((i) => i >= 0);
  let end = query.length > 0 ? Math.min(...query) : url.length;
  while (end > 0 && (url[end - 1] === '/' || url[end - 1] === '\\')) end--;
  const last = url.slice(0, end).replaceAll('\\', '/').replaceAll(':', '/').split('/').pop() ?? 'contracts';
  const base = last.endsWith('.git') ? last.slice(0, -4) : last;
  const safe = [...base].map((c) => (isSafeName(c) ? c : '_')).join('');
  return safe === '' || safe === '.' || safe === '..' ? 'contracts' : safe;
}
