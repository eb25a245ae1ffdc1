/**
 * How much accord reads from any one input file, in one place: docs/security.md
 * lists these (a test checks it does). A file is read only up to its limit
 * plus one byte, counted as it is read, so a file that lies about its size
 * (/proc files report 0) costs no more than the limit.
 */
export const FILE_LIMITS = {
  /** A contract (`.spec`), read from disk or from a git commit. */
  contractBytes: 16 * 1024 * 1024,
  /** One WSDL or XML Schema file. */
  wsdlBytes: 32 * 1024 * 1024,
  /** Files one WSDL import may pull in through imports and includes. */
  wsdlFiles: 500,
  /** One example file (`<contract>_examples/*.json`). */
  exampleBytes: 16 * 1024 * 1024,
  /** One entry of the parsed-contract cache; a bigger one is ignored and the contract parsed again. */
  cacheEntryBytes: 64 * 1024 * 1024,
  /** Symlinks followed one after another inside a git commit before giving up (as the kernel's ELOOP). */
  symlinkHops: 8,
  /** Leading bytes examined to tell text from binary. */
  sniffBytes: 64 * 1024,
  /** Characters of input quoted in a message, after escaping control characters. */
  excerptChars: 80,
} as const;

export type FileLimits = typeof FILE_LIMITS;
