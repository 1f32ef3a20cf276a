import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import ts from "typescript";

/**
 * Repository paths named in comments must exist (part of `npm run check:structure`): a file moved
 * or renamed leaves no comment pointing at where it used to be.
 *
 * What counts as a path: a word of a comment (split at white space, quotes, backticks, brackets
 * and commas; trailing `.`, `:` or `;` dropped) that contains a `/` and ends in one of PATH_ENDINGS,
 * like `platform/db/connect.ts` or `docs/decisions/0014-caches-across-replicas.md`. Not a path: a
 * word with a wildcard or placeholder (`*`, `<area>`, `{a,b}`, `$x`), a URL, and a package's own
 * file (`swagger-ui-dist/swagger-ui.css`: its first part is a folder of node_modules).
 *
 * Where it is looked for: from the repository root, from the commenting file's folder and every
 * folder above it, and from the folders a comment may name a file relative to by convention:
 * `src/server/` and its `platform/`, `domain/`, `features/` (e.g. `platform/db/read-cache.ts`,
 * `error-recorder/redact.ts`, `ledger/payouts.ts`) and `src/web/` (`lib/api-client.ts`). It is stale
 * when none of them holds it. Build outputs (`dist/…`, `bench/.cache/…`) are not looked for.
 */
export const PATH_ENDINGS = /\.(ts|tsx|js|cjs|mjs|md|json|yaml|yml|css|html|sql)$/;
const CONVENTIONAL_BASES = ["src/server", "src/server/platform", "src/server/domain", "src/server/features", "src/web"];
/** Build outputs and caches: named by comments, absent from a fresh checkout. */
const GENERATED = /^(dist|coverage|test-results|playwright-report|bench\/\.cache)\//;

export interface Comment {
  line: number;
  text: string;
}

/** Tokens after which a `/` divides; anywhere else it starts a regular expression. */
const DIVIDES_AFTER = new Set([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.BigIntLiteral,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.ThisKeyword,
  ts.SyntaxKind.SuperKeyword,
  ts.SyntaxKind.PlusPlusToken,
  ts.SyntaxKind.MinusMinusToken,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateTail,
]);

/**
 * Every comment of a TypeScript or JavaScript source, with the line it starts on. TypeScript's
 * scanner reads strings, templates and regular expressions as such, so a `//` inside one is not a comment.
 */
export function commentsOf(source: string, fileName: string): Comment[] {
  const variant = /\.[jt]sx$/.test(fileName) ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, variant, source);
  const lineStarts = [0];
  for (let i = source.indexOf("\n"); i !== -1; i = source.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const lineOf = (position: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= position) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
  const comments: Comment[] = [];
  // Open `{` of template substitutions, so the `}` that closes one resumes the template.
  const braces: boolean[] = [];
  let previous = ts.SyntaxKind.Unknown;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      comments.push({ line: lineOf(scanner.getTokenStart()), text: scanner.getTokenText() });
      continue;
    }
    if (kind === ts.SyntaxKind.WhitespaceTrivia || kind === ts.SyntaxKind.NewLineTrivia) continue;
    if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) && !DIVIDES_AFTER.has(previous)) kind = scanner.reScanSlashToken();
    else if (kind === ts.SyntaxKind.TemplateHead) braces.push(true);
    else if (kind === ts.SyntaxKind.OpenBraceToken) braces.push(false);
    else if (kind === ts.SyntaxKind.CloseBraceToken && braces.pop()) {
      kind = scanner.reScanTemplateToken(false);
      if (kind === ts.SyntaxKind.TemplateMiddle) braces.push(true);
    }
    previous = kind;
  }
  return comments;
}

/** The words of a comment that name a repository path (see the rule above). */
export function pathsNamed(comment: string): string[] {
  const paths: string[] = [];
  for (const raw of comment.split(/[\s"'`()[\],]+/)) {
    const word = raw.replace(/^[.:;]+(?=[^./])/, "").replace(/[.:;]+$/, "");
    if (!word.includes("/") || !PATH_ENDINGS.test(word)) continue;
    if (/[*<>{}$|\\]/.test(word) || /^[a-z]+:\/\//i.test(word) || word.startsWith("//")) continue;
    paths.push(word);
  }
  return paths;
}

/** Whether `path`, named in a comment of `file` (both relative to the repository root), is a file or folder there. */
export function pathExists(path: string, file: string, exists: (repoPath: string) => boolean): boolean {
  const first = path.replace(/^\.\//, "").split("/")[0]!;
  if (GENERATED.test(path) || exists(posix.join("node_modules", first))) return true;
  const bases = new Set<string>([""]);
  for (let dir = dirname(file); dir !== "." && dir !== "/" && dir !== ""; dir = dirname(dir)) bases.add(dir);
  for (const base of CONVENTIONAL_BASES) bases.add(base);
  for (const base of bases) {
    const candidate = posix.normalize(posix.join(base, path));
    if (!candidate.startsWith("..") && exists(candidate)) return true;
  }
  return false;
}

export interface StalePath {
  file: string;
  line: number;
  path: string;
}

/** Every path named in the comments of these sources that does not exist. */
export function stalePathsIn(sources: Array<{ file: string; source: string }>, exists: (repoPath: string) => boolean): StalePath[] {
  const stale: StalePath[] = [];
  for (const { file, source } of sources) {
    for (const comment of commentsOf(source, file)) {
      for (const path of pathsNamed(comment.text)) if (!pathExists(path, file, exists)) stale.push({ file, line: comment.line, path });
    }
  }
  return stale;
}

/** The repository's own sources whose comments are checked: src, scripts, bench, e2e and the configuration files at the root. */
export function repositorySources(root: string): Array<{ file: string; source: string }> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (dir !== "" || ["src", "scripts", "bench", "e2e"].includes(entry.name)) {
          if (entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(path);
        }
      } else if (/\.(tsx?|[cm]?js)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) files.push(path);
    }
  };
  walk("");
  return files.map((file) => ({ file, source: readFileSync(join(root, file), "utf8") }));
}

export const existsIn =
  (root: string) =>
  (repoPath: string): boolean =>
    existsSync(join(root, repoPath));
