import { defineCommand } from '../command.ts';
import { escapeControls } from '../../shared/app/printable.ts';
import { table, writeJson } from '../io.ts';
import { dataDirOf, keysPresent, openAppProfiles } from '../app-profiles.ts';

function keyCell(kind: string, present: boolean | undefined): string {
  if (kind === 'local') return 'own';
  if (present === undefined) return '? (no keychain)';
  return present ? 'yes' : 'missing';
}

export default defineCommand({
  summary: 'the profiles: name, address, whether active, whether its key is in the keychain',
  args: [],
  options: {
    names: { type: 'boolean', help: 'only the names, one a line (for completion)' },
  },
  examples: ['burrow profiles', 'burrow profiles --json'],
  async run({ values, options, io }) {
    const app = await openAppProfiles(dataDirOf(options, io), io);
    // Asked at each completion: no keychain asked, nothing started.
    if (values.names) {
      io.stdout.write(app.profiles.map((p) => `${escapeControls(p.name)}\n`).join(''));
      return 0;
    }
    const keys = await keysPresent(app);
    const rows = app.profiles.map((p) => ({
      name: p.name,
      address: p.kind === 'local' ? "Local sandbox (Burrow's, or the command's own)" : p.baseUrl,
      kind: p.kind,
      active: p.id === app.activeId,
      // The Local sandbox makes its own key; for the others, undefined when no keychain answers.
      key: p.kind === 'local' ? true : keys?.get(p.id),
    }));
    if (options.json) {
      writeJson(
        io,
        rows.map((r) => ({ ...r, key: r.key ?? null })),
      );
      return 0;
    }
    io.stdout.write(
      table([
        ['', 'NAME', 'ADDRESS', 'KEY'],
        ...rows.map((r) => [r.active ? '*' : '', r.name, r.address, keyCell(r.kind, r.key)]),
      ]),
    );
    return 0;
  },
});
