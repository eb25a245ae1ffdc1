import { CxfExtractor } from './extract-cxf';
import { EnvelopeExtractor } from './extract-envelopes';
import type { ExtractSink, TextExtractor } from './extractor';
import type { LogLimits } from './limits';
import type { LogLine } from './read-log';

export interface TextScanStats {
  lines: number;
  /** Lines that belong to no message. */
  skippedLines: number;
}

/**
 * Runs a text log through the extractors, one line at a time (the lines come in batches, see splitLines). Lines no
 * extractor takes are counted and the last of them kept as context (the
 * "Response:" line before a pretty-printed envelope).
 */
export async function scanTextLog(file: string, batches: AsyncIterable<LogLine[]>, sink: ExtractSink, limits: LogLimits): Promise<TextScanStats> {
  const extractors: TextExtractor[] = [new CxfExtractor(file, sink, limits), new EnvelopeExtractor(file, sink, limits)];
  let active: TextExtractor | undefined;
  let context = '';
  const stats: TextScanStats = { lines: 0, skippedLines: 0 };
  for await (const batch of batches) {
    for (const l of batch) {
      stats.lines = l.line;
      if (active) {
        const r = active.feed(l);
        if (r === 'more' || r === 'done') {
          if (!active.busy) active = undefined;
          continue;
        }
        active = undefined;
      }
      let taken = false;
      for (const x of extractors) {
        if (x.begin(l, context)) {
          taken = true;
          if (x.busy) active = x;
          context = '';
          break;
        }
      }
      if (taken) continue;
      stats.skippedLines++;
      if (l.overlong) sink.skipped(`lines longer than ${limits.maxLineChars} characters (cut; no envelope starts in their first 256)`);
      if (l.text.trim() !== '' && !/^\s*<\?xml[^>]*\?>\s*$/.test(l.text)) context = l.overlong ? '' : l.text.slice(0, 2000);
    }
  }
  active?.eof();
  return stats;
}
