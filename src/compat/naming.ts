import path from 'node:path';

const VERSIONED = /^(.+)_(v?)(\d+)(\.[A-Za-z]+)$/;

/**
 * Seed 9.2: a contract is named `<name>_<version>.spec`, and an incompatible
 * change goes into a new version file beside the old one. Returns the name the
 * next version should have (`api_math_v1.spec` → `api_math_v2.spec`; an
 * unversioned `api.spec` → `api_v2.spec`).
 */
export function nextVersionName(file: string): string {
  const base = path.basename(file);
  const m = VERSIONED.exec(base);
  if (m) return `${m[1]}_${m[2]}${Number(m[3]) + 1}${m[4]}`;
  const ext = path.extname(base) || '.spec';
  return `${base.slice(0, base.length - path.extname(base).length)}_v2${ext}`;
}

export function versionHint(file: string): string {
  const base = path.basename(file);
  const next = nextVersionName(file);
  return `${base} cannot change this way: keep it as it is and write the new version in ${next} beside it (contracts are named <name>_<version>.spec).`;
}
