import { Writable } from 'node:stream';
import { bytesProgress, formatBytes, startProgress } from '../../src/cli/progress';

/** A real stream that says it is a terminal (as process.stderr does on one) and keeps what is written. */
function terminal(columns = 80): Writable & { isTTY: boolean; columns: number; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  }) as Writable & { isTTY: boolean; columns: number; text: () => string };
  stream.isTTY = true;
  stream.columns = columns;
  stream.text = () => chunks.join('');
  return stream;
}

/** A clock the test moves by hand: the progress line depends on elapsed time. */
function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const flushed = () => new Promise((r) => setImmediate(r));

describe('progress on a terminal', () => {
  it('draws nothing during the first second, then one redrawn line at most ten times a second, erased when done', async () => {
    const out = terminal();
    const c = clock();
    const p = startProgress(out, { env: {}, now: c.now });
    p.update('reading a.log: 1.0 MB');
    c.advance(999);
    p.update('reading a.log: 2.0 MB');
    await flushed();
    expect(out.text()).toBe('');
    c.advance(1);
    p.update('reading a.log: 3.0 MB');
    c.advance(50);
    p.update('reading a.log: 3.5 MB');
    c.advance(50);
    p.update('reading a.log: 4.0 MB');
    p.done();
    await flushed();
    expect(out.text()).toBe('\rreading a.log: 3.0 MB\x1b[K\rreading a.log: 4.0 MB\x1b[K\r\x1b[K');
  });

  it('quick work leaves no trace, and done() twice erases once', async () => {
    const out = terminal();
    const p = startProgress(out, { env: {} });
    p.update('reading a.log: 1 B');
    p.done();
    p.done();
    await flushed();
    expect(out.text()).toBe('');
  });

  it('never draws into a pipe or a file, in a CI run, or on a dumb terminal', async () => {
    const pipe = terminal();
    pipe.isTTY = false;
    const c = clock();
    const runs = [startProgress(pipe, { env: {}, now: c.now })];
    const ci = terminal();
    runs.push(startProgress(ci, { env: { CI: 'true' }, now: c.now }));
    const dumb = terminal();
    runs.push(startProgress(dumb, { env: { TERM: 'dumb' }, now: c.now }));
    c.advance(5_000);
    for (const p of runs) {
      p.update('reading a.log: 1.0 MB');
      p.done();
    }
    await flushed();
    expect([pipe.text(), ci.text(), dumb.text()]).toEqual(['', '', '']);
    // CI=false is not a CI run.
    const local = terminal();
    const p = startProgress(local, { env: { CI: 'false' }, delayMs: 0 });
    p.update('x');
    await flushed();
    expect(local.text()).toBe('\rx\x1b[K');
  });

  it('keeps to one line of the terminal and shows no control characters from file names', async () => {
    const out = terminal(30);
    const p = startProgress(out, { env: {}, delayMs: 0 });
    p.update('reading \x1b[31mred\x07\u202egol.txt: 1.0 MB of 18.0 MB (5%)');
    await flushed();
    const line = out.text().slice(1, -3);
    // Escaped as everywhere else (src/printable.ts): bidi overrides and line separators included.
    expect(line).toBe('reading \\x1b[31mred\\x07\\u{20…');
    expect(out.text()).not.toMatch(/[\u0000-\u0008\u000e-\u001a\u202e]/);
    expect(line.length).toBe(29);
  });

  it('ACCORD_PROGRESS_DELAY_MS sets the delay', async () => {
    const out = terminal();
    const p = startProgress(out, { env: { ACCORD_PROGRESS_DELAY_MS: '0' } });
    p.update('now');
    await flushed();
    expect(out.text()).toBe('\rnow\x1b[K');
  });

  it('says sizes as people read them', () => {
    expect([formatBytes(999), formatBytes(18_400_000), formatBytes(2_500_000_000)]).toEqual(['999 B', '18.4 MB', '2.5 GB']);
    expect(bytesProgress('reading', 'server.log', 12_300_000, 18_000_000)).toBe('reading server.log: 12.3 MB of 18.0 MB (68%)');
    expect(bytesProgress('reading', '<stdin>', 12_300_000, undefined)).toBe('reading <stdin>: 12.3 MB');
  });
});
