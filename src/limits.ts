/**
 * Every bound accord puts on what it reads or builds, in one place, so the
 * limits docs/security.md lists are the ones the code uses. Lowest layer:
 * anything may import it, it imports nothing.
 */

/** Named types nested in one another (XSD types, `(T)` chains, walks over a contract's places). Recursion stops here. */
export const MAX_TYPE_NESTING = 64;

/** JSON nested deeper than this is refused before it is parsed (a recursive matcher would overflow the stack). */
export const MAX_JSON_DEPTH = 256;

/** XML documents: element depth, attributes per element, elements per document. */
export const XML_LIMITS = { maxDepth: 256, maxAttributes: 256, maxElements: 200_000 } as const;

/** Generation: nesting beyond which optional and repeated parts are left out (a recursive type must end). */
export const MAX_GENERATE_DEPTH = 24;
