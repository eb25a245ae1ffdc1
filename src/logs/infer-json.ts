import { MAX_TYPE_NESTING } from '../limits';
import { classifyJsonString, type TextType, widen } from './scalar';

/** What many logged JSON values at one place have in common. */
export interface JsonShape {
  /** Values merged, nulls included. */
  count: number;
  nulls: number;
  scalar?: TextType;
  /** JSON numbers and booleans keep their JSON type; a string "7" never matches (number). */
  jsonKind?: 'number' | 'boolean' | 'string' | 'object' | 'array';
  /** Kinds disagreed (an object here, a string there): only (anything) holds both. */
  mixed: boolean;
  fields?: Map<string, { shape: JsonShape; seen: number }>;
  objects: number;
  item?: JsonShape;
}

export function newJsonShape(): JsonShape {
  return { count: 0, nulls: 0, mixed: false, objects: 0 };
}

export function mergeJson(shape: JsonShape | undefined, value: unknown, depth = 0): JsonShape {
  const s = shape ?? newJsonShape();
  s.count++;
  if (value === null || value === undefined) {
    s.nulls++;
    return s;
  }
  if (depth > MAX_TYPE_NESTING) {
    s.mixed = true;
    return s;
  }
  const kind = Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : (typeof value as 'number' | 'boolean' | 'string');
  if (s.jsonKind && s.jsonKind !== kind) s.mixed = true;
  s.jsonKind ??= kind;
  if (s.mixed) return s;
  switch (kind) {
    case 'number':
      s.scalar = 'number';
      break;
    case 'boolean':
      s.scalar = 'boolean';
      break;
    case 'string':
      s.scalar = widen(s.scalar, classifyJsonString(value as string));
      break;
    case 'array':
      for (const v of value as unknown[]) s.item = mergeJson(s.item, v, depth + 1);
      break;
    case 'object': {
      s.objects++;
      s.fields ??= new Map();
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const f = s.fields.get(k);
        if (f) {
          f.shape = mergeJson(f.shape, v, depth + 1);
          f.seen++;
        } else s.fields.set(k, { shape: mergeJson(undefined, v, depth + 1), seen: 1 });
      }
      break;
    }
    default:
      s.mixed = true;
  }
  return s;
}
