import { run } from '../../src/cli/main';
/** `accord <argv>` in this process (the CLI's own run()) in `cwd`: its exit code and what it printed to each stream. */
export async function runAccord(argv: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(argv, { cwd, stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}
