/** The file names of paths, as a sentence names them: "id_ed25519, id_ed25519.pub". */
export function fileNames(paths: readonly string[]): string {
  return paths.map((p) => p.split(/[\\/]/).pop() ?? p).join(', ');
}
