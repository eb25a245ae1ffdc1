import { runAccord } from '../helpers/cli-run';

/** run() as the CLI runs it, keeping what it prints. */
const accord = (argv: string[]) => runAccord(argv, process.cwd());

/**
 * `accord <command> ...` declares only that command (cli/commands/index.ts); `accord help <command>`
 * and `accord --help` declare them all. What a command prints must not depend on which were declared.
 */
describe('declaring only the command asked for', () => {
  it.each(['stub', 'test', 'compatible', 'contracts', 'config', 'import', 'validate', 'proxy'])('accord %s --help prints what `accord help %s` prints', async (name) => {
    const alone = await accord([name, '--help']);
    const amongAll = await accord(['help', name]);
    expect(alone.code).toBe(0);
    expect(alone.out).toContain(`Usage: accord ${name} `);
    expect(alone).toEqual(amongAll);
  });

  it.each([
    ['compatible', 'git'],
    ['import', 'wsdl'],
    ['import', 'log'],
    ['import', 'soapui'],
    ['contracts', 'pull'],
    ['config', 'migrate'],
  ])('accord %s %s --help prints its own help', async (name, sub) => {
    const r = await accord([name, sub, '--help']);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toContain(`Usage: accord ${name} ${sub} `);
  });

  it('the program help still lists every command, and a misspelt one is still suggested', async () => {
    const help = await accord(['--help']);
    const listed = help.out.slice(help.out.indexOf('Commands:')).match(/^ {2}[a-z]+/gm);
    expect(listed?.map((s) => s.trim())).toEqual(['stub', 'test', 'compatible', 'contracts', 'config', 'import', 'export', 'validate', 'proxy', 'help']);
    const typo = await accord(['stup']);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('(Did you mean stub?)');
  });

  it('a bad option of the command asked for is reported as before, with its help', async () => {
    const bad = await accord(['stub', '--prot', '1']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("error: unknown option '--prot'\n(Did you mean --port?)");
    expect(bad.err).toContain('Usage: accord stub [options] [contracts...]');
  });
});
