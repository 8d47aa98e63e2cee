import ts from 'typescript';

/**
 * Object shapes the web's api layer may declare itself: client plumbing and the camelCase
 * arguments of its own functions, never a payload (those come from src/protocol).
 */
export const CLIENT_SHAPES = new Set([
  'RequestOptions',
  'TokenSource',
  'ErrorProbe',
  'XhrAnswer',
  'HistoryQuery',
]);

/** Server modules the web may import values from: constants only, no schema code. */
export const VALUE_MODULES = new Set([
  'src/protocol/api/constants.ts',
  'src/protocol/history-metrics.ts',
  'src/protocol/alert-metrics.ts',
]);

export interface Finding {
  line: number;
  problem: string;
}

function declarationName(node: ts.Node): string | undefined {
  for (let n: ts.Node | undefined = node; n; n = n.parent) {
    if (ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n)) return n.name.text;
  }
  return undefined;
}

/**
 * What breaks "one wire model per payload" in one file of web/src/api: an interface or object
 * type literal outside the client shapes (a hand copy of a payload), or a value import of a
 * server module other than the constant ones (schema code would enter the bundle).
 * `serverPath` maps an import specifier to its path under the repository, or undefined when
 * it stays inside the web app.
 */
export function wireTypeFindings(
  fileName: string,
  text: string,
  serverPath: (specifier: string) => string | undefined,
): Finding[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const findings: Finding[] = [];
  const at = (node: ts.Node, problem: string) =>
    findings.push({ line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, problem });

  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) && !ts.isExportDeclaration(st)) continue;
    const spec = st.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec)) continue;
    const target = serverPath(spec.text);
    if (target === undefined || VALUE_MODULES.has(target)) continue;
    const typeOnly = ts.isImportDeclaration(st)
      ? st.importClause?.isTypeOnly === true
      : st.isTypeOnly;
    if (!typeOnly) at(st, `value import of ${target}: use import type`);
  }

  const visit = (node: ts.Node) => {
    if (ts.isInterfaceDeclaration(node) && !CLIENT_SHAPES.has(node.name.text)) {
      at(node, `interface ${node.name.text}: payload types come from src/protocol`);
      return;
    }
    if (ts.isTypeLiteralNode(node)) {
      const owner = declarationName(node);
      if (owner === undefined || !CLIENT_SHAPES.has(owner)) {
        at(node, `object type ${node.getText(sf)}: payload types come from src/protocol`);
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}
