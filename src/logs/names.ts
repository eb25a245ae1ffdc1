/** Type names for a contract, made from node names and kept unique within a scenario. */
export class TypeNames {
  private readonly used = new Set<string>();

  constructor(reserved: Iterable<string> = []) {
    for (const r of reserved) this.used.add(r);
  }

  take(base: string): string {
    const clean = pascal(base) || 'Node';
    let name = clean;
    for (let i = 2; this.used.has(name); i++) name = `${clean}${i}`;
    this.used.add(name);
    return name;
  }
}

/** `get-pet_request` → `GetPetRequest`; a name that cannot start a type gets a prefix. */
export function pascal(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  let out = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  if (/^\d/.test(out)) out = `T${out}`;
  return out;
}

/** Operation element name without its Request/Response suffix: `getPetRequest` → `getPet`. */
export function operationBase(local: string): string {
  return local.replace(/(Request|Response)$/, '') || local;
}
