import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The import graph of a source tree, file by file, as the TypeScript compiler reads it: every
// `import`, `import type`, `export … from` and `import()` of a relative path, whatever the path looks
// like (`./x`, `../b/x`, `../../modules/b/x`). Packages are left out. Test files are left out: they may
// set up what they need from anywhere.

type ImportGraph = Map<string, string[]>;

const sourcesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });

const resolve = (from: string, specifier: string) => {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts'), base].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
  );
};

// Files are named relative to `root`.
export const importGraph = (root: string): ImportGraph => {
  const graph: ImportGraph = new Map();
  for (const file of sourcesUnder(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.flatMap(({ fileName }) => resolve(file, fileName) ?? []);
    graph.set(
      path.relative(root, file),
      [...new Set(targets)].map((target) => path.relative(root, target)),
    );
  }
  return graph;
};

// The groups of files that import each other, directly or around a loop (Tarjan's strongly connected
// components), each sorted, largest first: empty when the graph has no cycle.
export const importCycles = (graph: ImportGraph): string[][] => {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
};

// The same graph between folders of `dir` (modules/<name>/…): which module imports which.
export const folderGraph = (graph: ImportGraph, dir: string): ImportGraph => {
  const folderOf = (file: string) =>
    file.startsWith(`${dir}/`) ? file.slice(dir.length + 1).split('/')[0] : undefined;
  const folders: ImportGraph = new Map();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (!from) continue;
    const uses = new Set(folders.get(from));
    for (const target of targets) {
      const to = folderOf(target);
      if (to && to !== from) uses.add(to);
    }
    folders.set(from, [...uses]);
  }
  return folders;
};
