/** The vocabulary of a comparison's answer, apart from the comparison itself so its parts can name it without a cycle. */

export type DifferenceKind =
  /** B can produce a value of a type A does not accept. */
  | 'type'
  /** B can produce a node, key, attribute, query parameter or form field A does not allow. */
  | 'unexpected'
  /** A requires a node, key, attribute, header or form field that B never has. */
  | 'missing'
  /** A requires it; B may leave it out (or, for a JSON value, make it null). */
  | 'optional'
  /** A allows one such node in a row; B may repeat it. */
  | 'repeated'
  /** B may send the node as xsi:nil; A may not. */
  | 'nillable'
  /** B's node may be an instance of a type (xsi:type, or the declared type itself) that A does not list. */
  | 'derived'
  /** B's child nodes may come in a sequence A's order does not allow. */
  | 'order'
  /** B's node may come under any name (`specmatic_name="any"`); A's must have its own. */
  | 'name'
  /** B's JSON object may carry keys beyond its own; A's object is closed. */
  | 'open';

/** What a difference is about: the part of a message it names. */
export type DifferenceTarget = 'node' | 'header' | 'query' | 'field' | 'value';

export interface Difference {
  kind: DifferenceKind;
  target: DifferenceTarget;
  /** "Envelope/Body/getPetResponse/name", "pets[*].id", "" for the root. */
  path: string;
  /** The node, key, attribute, header or parameter concerned (kinds other than 'type'). */
  name?: string;
  /** What A says here, in report words: "(number)", "node <id>", "required". */
  a: string;
  /** What B says here. */
  b: string;
  /** For 'type': B accepts every value of A (A is strictly narrower), so the change only narrows or widens. */
  narrower?: boolean;
  /** Why the comparison could not be exact here (the report adds it to the finding). */
  note?: string;
}

export type TextMode = 'json' | 'text';

/** Options of the entry functions. `stopAtFirst`: answer yes or no quickly; at most one difference is returned. */
export interface CompareOptions {
  stopAtFirst?: boolean;
}
