/**
 * Bounds for reading logs. Every input is hostile: a log line, a message and
 * the number of messages waiting for their partner are all capped, so a
 * malformed or malicious file costs bounded memory and linear time.
 */
export interface LogLimits {
  /** Longest line kept (characters); the rest of a longer line is skipped. */
  maxLineChars: number;
  /** Largest single message (request or response body) in characters. */
  maxMessageChars: number;
  /** Largest HAR entry (one request/response pair as JSON) in characters. */
  maxHarEntryChars: number;
  /** Requests held while waiting for their response; beyond this the oldest is reported unpaired. */
  maxPending: number;
  /** Characters of request bodies held while waiting, likewise. */
  maxPendingChars: number;
  /** Most bytes read from one gzip-compressed log after decompression. */
  maxInflatedBytes: number;
  /** Distinct Examples rows kept per scenario with --examples. */
  maxExamples: number;
  /** Distinct operations (scenarios) kept; calls of further operations are counted and left out. */
  maxOperations: number;
  /** Distinct XML nodes across all operations' shapes; more fails the import (a hostile or non-API log). */
  maxShapeNodes: number;
}

export const DEFAULT_LOG_LIMITS: LogLimits = {
  maxLineChars: 8 * 1024 * 1024,
  maxMessageChars: 4 * 1024 * 1024,
  maxHarEntryChars: 16 * 1024 * 1024,
  maxPending: 10_000,
  maxPendingChars: 16 * 1024 * 1024,
  maxInflatedBytes: 2 * 1024 * 1024 * 1024,
  maxExamples: 50,
  maxOperations: 1000,
  maxShapeNodes: 200_000,
};
