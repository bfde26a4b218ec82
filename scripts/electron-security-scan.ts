import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/*
 * The security scan of the desktop shell, in place of Electronegativity (whose checks it
 * follows; the tool itself bundles TypeScript 4.2 and ESLint 7, and cannot parse this code). It
 * reads the syntax trees of electron/*.ts, and the bundled dist/electron when it is built, and
 * names each weakness with a severity. Run as `npm run scan:electron` (in npm test), it prints
 * every finding and exits 1 on any HIGH or MEDIUM one.
 */

export type Severity = 'HIGH' | 'MEDIUM' | 'LOW';
export type Finding = {
  severity: Severity;
  file: string;
  line: number;
  check: string;
  message: string;
};

/** webPreferences that must never be switched on, anywhere (source or bundle). */
const FORBIDDEN_TRUE: Record<string, Severity> = {
  nodeIntegration: 'HIGH',
  nodeIntegrationInWorker: 'HIGH',
  nodeIntegrationInSubFrames: 'HIGH',
  allowRunningInsecureContent: 'HIGH',
  experimentalFeatures: 'MEDIUM',
  webviewTag: 'MEDIUM',
  enableRemoteModule: 'HIGH',
};
/** …and those that must never be switched off. */
const FORBIDDEN_FALSE: Record<string, Severity> = {
  contextIsolation: 'HIGH',
  sandbox: 'HIGH',
  webSecurity: 'HIGH',
};
/** Every BrowserWindow states these itself, so a changed default cannot weaken it. */
const REQUIRED_IN_WINDOW: Record<string, boolean> = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  webSecurity: true,
};

function propertyName(node: ts.ObjectLiteralElementLike): string | undefined {
  if (!ts.isPropertyAssignment(node) && !ts.isShorthandPropertyAssignment(node)) return undefined;
  const name = node.name;
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

function booleanValue(node: ts.ObjectLiteralElementLike): boolean | undefined {
  if (!ts.isPropertyAssignment(node)) return undefined;
  const kind = node.initializer.kind;
  // Bundlers write !0 and !1 for true and false.
  if (kind === ts.SyntaxKind.TrueKeyword) return true;
  if (kind === ts.SyntaxKind.FalseKeyword) return false;
  const init = node.initializer;
  if (
    ts.isPrefixUnaryExpression(init) &&
    init.operator === ts.SyntaxKind.ExclamationToken &&
    ts.isNumericLiteral(init.operand)
  )
    return init.operand.text === '0';
  return undefined;
}

/** `a.b.c(...)` → 'a.b.c'; the callee's dotted name, or its last part when not all identifiers. */
function calleeName(call: ts.CallExpression): string {
  const parts: string[] = [];
  let expression: ts.Expression = call.expression;
  while (ts.isPropertyAccessExpression(expression)) {
    parts.unshift(expression.name.text);
    expression = expression.expression;
  }
  if (ts.isIdentifier(expression)) parts.unshift(expression.text);
  return parts.join('.');
}

function mentions(node: ts.Node, name: string): boolean {
  let found = false;
  const visit = (n: ts.Node) => {
    if (found) return;
    if (ts.isIdentifier(n) && n.text === name) found = true;
    else n.forEachChild(visit);
  };
  visit(node);
  return found;
}

/** Whether `node` runs only under an `if` whose condition calls `guard`. */
function isGuardedBy(node: ts.Node, guard: string): boolean {
  for (let n: ts.Node | undefined = node; n; n = n.parent) {
    const parent = n.parent as ts.Node | undefined;
    if (
      parent &&
      ts.isIfStatement(parent) &&
      parent.thenStatement === n &&
      mentions(parent.expression, guard)
    )
      return true;
  }
  return false;
}

/**
 * The checks on one file. `bundle` marks built output, where only the forbidden settings are
 * looked for (names of our functions do not survive bundling).
 */
export function scanSource(
  file: string,
  text: string,
  options: { bundle?: boolean } = {},
): Finding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const findings: Finding[] = [];
  const add = (node: ts.Node, severity: Severity, check: string, message: string) =>
    findings.push({
      severity,
      file,
      line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
      check,
      message,
    });

  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node)) {
      for (const property of node.properties) {
        const name = propertyName(property);
        if (name === undefined) continue;
        const value = booleanValue(property);
        if (value === true && Object.hasOwn(FORBIDDEN_TRUE, name))
          add(property, FORBIDDEN_TRUE[name] as Severity, name, `${name} is switched on`);
        if (value === false && Object.hasOwn(FORBIDDEN_FALSE, name))
          add(property, FORBIDDEN_FALSE[name] as Severity, name, `${name} is switched off`);
        if (name === 'enableBlinkFeatures')
          add(property, 'MEDIUM', name, 'Blink features are enabled');
      }
    }
    if (
      (ts.isImportDeclaration(node) || ts.isCallExpression(node)) &&
      /["']@electron\/remote["']/.test(node.getText())
    )
      add(node, 'HIGH', 'remote-module', 'the remote module gives renderers the main process');
    if (
      !options.bundle &&
      ts.isNewExpression(node) &&
      node.expression.getText() === 'BrowserWindow'
    )
      checkWindow(node, add);
    if (!options.bundle && ts.isCallExpression(node)) checkCall(node, add);
    node.forEachChild(visit);
  };
  visit(source);
  return findings;
}

type Add = (node: ts.Node, severity: Severity, check: string, message: string) => void;

function checkWindow(node: ts.NewExpression, add: Add): void {
  const options = node.arguments?.[0];
  const preferences =
    options && ts.isObjectLiteralExpression(options)
      ? options.properties.find((p) => propertyName(p) === 'webPreferences')
      : undefined;
  const literal =
    preferences &&
    ts.isPropertyAssignment(preferences) &&
    ts.isObjectLiteralExpression(preferences.initializer)
      ? preferences.initializer
      : undefined;
  if (!literal) {
    add(
      node,
      'HIGH',
      'webPreferences',
      'a BrowserWindow without literal webPreferences cannot be checked',
    );
    return;
  }
  for (const [name, wanted] of Object.entries(REQUIRED_IN_WINDOW)) {
    const property = literal.properties.find((p) => propertyName(p) === name);
    if (!property || booleanValue(property) !== wanted)
      add(node, 'HIGH', name, `a BrowserWindow must set ${name}: ${String(wanted)}`);
  }
}

function checkCall(call: ts.CallExpression, add: Add): void {
  const name = calleeName(call);
  const [first, second] = call.arguments;
  if (name === 'shell.openExternal' && !isGuardedBy(call, 'isExternalLink'))
    add(
      call,
      'MEDIUM',
      'open-external',
      'shell.openExternal of a URL not checked by isExternalLink',
    );
  if (name === 'ipcMain.on' || name === 'ipcMain.once' || name === 'ipcMain.handleOnce')
    add(
      call,
      'MEDIUM',
      'ipc-handler',
      `${name}: every call goes through the one checked ipcMain.handle`,
    );
  if (name === 'ipcMain.handle') {
    const handler = second;
    const checked = handler !== undefined && checkedBy(handler, 'invokeHandler', 'isTrustedSender');
    if (!checked)
      add(call, 'HIGH', 'ipc-sender', 'an ipcMain handler that does not check its sender');
  }
  if (
    name === 'protocol.handle' &&
    !(second && checkedBy(second, 'appSchemeHandler', 'resolveUnder'))
  )
    add(
      call,
      'HIGH',
      'protocol-path',
      'a protocol handler that does not keep paths under its folder (resolveUnder)',
    );
  if (
    name.endsWith('setWindowOpenHandler') &&
    first &&
    /action:\s*['"]allow['"]/.test(first.getText())
  )
    add(call, 'HIGH', 'window-open', 'window.open is allowed');
  if (name.endsWith('loadURL') && first && /^['"`]http:/.test(first.getText()))
    add(call, 'MEDIUM', 'insecure-load', 'a window loads plain http');
  if (
    name === 'contextBridge.exposeInMainWorld' &&
    second &&
    mentions(second, 'ipcRenderer') &&
    !ts.isIdentifier(second)
  )
    checkExposed(second, add);
}

/**
 * Whether a handler is made by our checked factory (scanShell makes sure the factory itself
 * calls the check) or calls the check itself.
 */
function checkedBy(handler: ts.Expression, factory: string, check: string): boolean {
  return (
    (ts.isCallExpression(handler) && calleeName(handler) === factory) || mentions(handler, check)
  );
}

// The preload exposes functions that call ipcRenderer, never ipcRenderer itself.
function checkExposed(value: ts.Expression, add: Add): void {
  const visit = (n: ts.Node) => {
    if (ts.isIdentifier(n) && n.text === 'ipcRenderer' && !ts.isPropertyAccessExpression(n.parent))
      add(n, 'HIGH', 'preload', 'ipcRenderer itself is exposed to the page');
    n.forEachChild(visit);
  };
  visit(value);
}

/** What the whole shell must have somewhere: the guards whose absence is itself the weakness. */
export function scanShell(files: ReadonlyMap<string, string>): Finding[] {
  const all = [...files.values()].join('\n');
  const missing: [RegExp, Severity, string, string][] = [
    [
      /\.setWindowOpenHandler\(/,
      'HIGH',
      'window-open',
      'no setWindowOpenHandler: window.open makes windows',
    ],
    [/['"]will-navigate['"]/, 'MEDIUM', 'navigation', 'no will-navigate guard'],
    [
      /\.setPermissionRequestHandler\(/,
      'MEDIUM',
      'permissions',
      'no permission request handler: every request is granted',
    ],
    [
      /['"]Content-Security-Policy['"]/,
      'MEDIUM',
      'csp',
      'no Content-Security-Policy header on the app’s responses',
    ],
    [
      /\bisTrustedSender\(/,
      'HIGH',
      'ipc-sender',
      'no IPC handler checks its sender (isTrustedSender)',
    ],
    [
      /\bresolveUnder\(/,
      'HIGH',
      'protocol-path',
      'the app scheme does not check its paths (resolveUnder)',
    ],
    [/\.enableSandbox\(\)/, 'MEDIUM', 'sandbox', 'app.enableSandbox() is not called'],
    [/\.requestSingleInstanceLock\(\)/, 'LOW', 'single-instance', 'no single-instance lock'],
  ];
  return missing
    .filter(([pattern]) => !pattern.test(all))
    .map(([, severity, check, message]) => ({
      severity,
      file: 'electron/',
      line: 0,
      check,
      message,
    }));
}

/** The fuses a packaged binary must have, whatever electron-builder.yml says. */
export const REQUIRED_FUSES: Readonly<Record<string, boolean>> = {
  runAsNode: false,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
};

/** The fuses electron-builder flips in the packaged binary (its electronFuses option). */
export function scanFuses(builderConfig: string): Finding[] {
  return Object.entries(REQUIRED_FUSES)
    .filter(
      ([fuse, value]) =>
        !new RegExp(`^\\s+${fuse}:\\s*${String(value)}\\s*$`, 'm').test(builderConfig),
    )
    .map(([fuse, value]) => ({
      severity: 'MEDIUM' as const,
      file: 'electron-builder.yml',
      line: 0,
      check: 'fuses',
      message: `electronFuses.${fuse} must be ${String(value)}`,
    }));
}

/** The command line: the scan of this checkout, printed. */
function main(): void {
  const root = path.resolve(import.meta.dirname, '..');
  const read = (dir: string, pattern: RegExp) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((name) => pattern.test(name))
          .map(
            (name) =>
              [
                path.relative(root, path.join(dir, name)),
                readFileSync(path.join(dir, name), 'utf8'),
              ] as const,
          )
      : [];

  const sources = new Map(read(path.join(root, 'electron'), /\.ts$/));
  const bundles = read(path.join(root, 'dist', 'electron'), /\.c?js$/);
  const findings: Finding[] = [
    ...[...sources].flatMap(([file, text]) => scanSource(file, text)),
    ...bundles.flatMap(([file, text]) => scanSource(file, text, { bundle: true })),
    ...scanShell(sources),
    ...scanFuses(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')),
  ];
  for (const f of findings)
    console.log(`${f.severity} ${f.file}${f.line ? `:${f.line}` : ''} [${f.check}] ${f.message}`);
  const failing = findings.filter((f) => f.severity !== 'LOW').length;
  console.log(
    `electron scan: ${sources.size} source files, ${bundles.length} built files, ${findings.length} findings (${failing} HIGH/MEDIUM)`,
  );
  process.exit(failing > 0 ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
