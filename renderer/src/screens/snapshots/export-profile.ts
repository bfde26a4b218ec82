import type { Bridge } from '../../../../shared/app/ipc/bridge.ts';
import type { ExportRequest } from '../../../../shared/app/ipc/snapshots.ts';

/** The document the window received, offered as a file to keep (browser mode). */
function download(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * A profile's whole configuration to a file (the shell's save dialog) or, in browser mode, a
 * download; answers what was written in words, or undefined when the person cancelled.
 */
export async function exportProfile(
  bridge: Bridge,
  request: ExportRequest,
): Promise<string | undefined> {
  const result = await bridge.invoke('snapshots.export', request);
  if (result.status === 'cancelled') return undefined;
  const secrets = result.containsSecrets
    ? result.status === 'saved'
      ? ' It holds secrets (client and webhook secrets): it is readable by you alone (0600); keep it private.'
      : ' It holds secrets (client and webhook secrets): keep the file private.'
    : '';
  if (result.status === 'saved')
    return `Wrote ${result.resources} resources to ${result.path}.${secrets}`;
  download(result.text, result.fileName);
  return `Downloaded ${result.resources} resources as ${result.fileName}.${secrets}`;
}
