import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseAst } from 'vite';
import { format, resolveConfig } from 'prettier';
import { args, resultsDir, root } from './lib';

// The web app's JavaScript as a browser downloads it: `npx tsx bench/web-bundle.ts [--dist DIR]`
// after `npm run build` (building is the caller's job; this only reads apps/web/dist, or DIR:
// another Vite build of the app, e.g. to try a chunking option, whose result is not saved).
//
// The first load is the entry chunk that index.html starts plus every chunk it imports statically,
// transitively: what the browser fetches before any route renders. That is what /tickets (the
// inbox) needs, since the inbox and the app shell are not lazy; chunks reached only through
// import() (lazy pages, the dashboard's charts, the emoji picker) are not part of it, except the
// texts of the language the app starts in: main.tsx renders once i18n.ts has fetched them.
// Sizes are bytes; gzip at level 6, as `gzip -c` and a typical server send it. kB = 1,000 bytes,
// as Vite prints them.

const FIRST_LOAD_TARGET_KB = 250;
// The chunk of Spanish texts (vite.config.ts's texts-es group): a first visit is in Spanish.
const START_TEXTS = /^texts-es-[\w-]+\.js$/;
// Vite's build.chunkSizeWarningLimit default (minified, not gzipped).
const VITE_WARNING_KB = 500;

const otherDist = args().text('dist');
const distDir = otherDist ? path.resolve(otherDist) : path.join(root, 'apps/web/dist');
const shown = (dir: string) =>
  path.relative(root, dir).startsWith('..') ? dir : path.relative(root, dir);
const assetsDir = path.join(distDir, 'assets');
const indexFile = path.join(distDir, 'index.html');

if (!existsSync(indexFile) || !existsSync(assetsDir)) {
  console.error(
    `No web build in ${shown(distDir)} (index.html or assets/ missing): run \`npm run build\` first.`,
  );
  process.exit(1);
}

type Chunk = {
  file: string;
  rawBytes: number;
  gzipBytes: number;
  imports: string[];
  dynamicImports: string[];
};

const kB = (bytes: number) => Math.round(bytes / 10) / 100;

type Source = {
  type?: string;
  value?: unknown;
  expressions?: unknown[];
  quasis?: { value: { cooked?: string } }[];
};
// A string literal, or a template literal without expressions (rolldown writes import(`./x.js`)).
const literal = (source: Source | null | undefined) => {
  if (source?.type === 'Literal') return source.value;
  if (source?.type === 'TemplateLiteral' && !source.expressions?.length)
    return source.quasis?.[0]?.value.cooked;
  return undefined;
};

// Static imports (import/export … from) and import() of other chunks, from the chunk's syntax tree.
const importsOf = (code: string, file: string) => {
  const imports = new Set<string>();
  const dynamicImports = new Set<string>();
  const resolve = (specifier: unknown) => {
    if (typeof specifier !== 'string' || !specifier.startsWith('.')) return undefined;
    return path.posix
      .join(path.posix.dirname(`assets/${file}`), specifier)
      .replace(/^assets\//, '');
  };
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) walk(child);
      return;
    }
    const n = node as { type?: string; source?: Source | null };
    if (
      n.type === 'ImportDeclaration' ||
      n.type === 'ExportNamedDeclaration' ||
      n.type === 'ExportAllDeclaration'
    ) {
      const target = resolve(literal(n.source));
      if (target) imports.add(target);
    } else if (n.type === 'ImportExpression') {
      const target = resolve(literal(n.source));
      if (target) dynamicImports.add(target);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'type' && value && typeof value === 'object') walk(value);
    }
  };
  walk(parseAst(code));
  return { imports: [...imports], dynamicImports: [...dynamicImports] };
};

const chunks = new Map<string, Chunk>();
for (const file of readdirSync(assetsDir)
  .filter((name) => name.endsWith('.js'))
  .sort()) {
  const code = readFileSync(path.join(assetsDir, file));
  chunks.set(file, {
    file,
    rawBytes: code.length,
    gzipBytes: gzipSync(code, { level: 6 }).length,
    ...importsOf(code.toString('utf8'), file),
  });
}
if (!chunks.size) {
  console.error(`No JavaScript in ${shown(assetsDir)}: run \`npm run build\` first.`);
  process.exit(1);
}

// index.html: the module script(s) that start the app, and what it asks the browser to preload.
const html = readFileSync(indexFile, 'utf8');
const assetsIn = (pattern: RegExp) =>
  [...html.matchAll(pattern)].map((m) => m[1].replace(/^\/?assets\//, ''));
const entries = assetsIn(/<script[^>]*type="module"[^>]*src="([^"]+\.js)"/g);
const modulepreload = assetsIn(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g);
if (!entries.length) {
  console.error('index.html starts no module script: is apps/web/dist a Vite build?');
  process.exit(1);
}

// Static import closure.
const closure = (starts: string[]) => {
  const seen = new Set<string>();
  const queue = [...starts];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const chunk = chunks.get(file);
    if (!chunk) throw new Error(`${file} is imported but not in dist/assets`);
    queue.push(...chunk.imports);
  }
  return [...seen];
};

const staticFirstLoad = closure(entries);
const startTexts = [...chunks.keys()].filter((file) => START_TEXTS.test(file));
const firstLoad = closure([...entries, ...startTexts]);
const firstLoadSet = new Set(firstLoad);
const sum = (files: string[], key: 'rawBytes' | 'gzipBytes') =>
  files.reduce((total, file) => total + chunks.get(file)![key], 0);
const all = [...chunks.keys()];

// What each lazily loaded chunk adds on top of the first load when its import() runs.
const lazy = [...new Set(all.flatMap((file) => chunks.get(file)!.dynamicImports))]
  .filter((file) => !firstLoadSet.has(file))
  .sort()
  .map((file) => {
    const extra = closure([file]).filter((f) => !firstLoadSet.has(f));
    return { chunk: file, adds: extra, addsGzipBytes: sum(extra, 'gzipBytes') };
  });

const readCommit = () => {
  // HEAD read from .git directly (no git process), as lib.ts's machine() reports it.
  try {
    const gitDir = path.join(root, '.git');
    const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head.slice(0, 7);
    const ref = head.slice(5);
    const loose = path.join(gitDir, ref);
    if (existsSync(loose)) return readFileSync(loose, 'utf8').trim().slice(0, 7);
    const packed = readFileSync(path.join(gitDir, 'packed-refs'), 'utf8')
      .split('\n')
      .find((line) => line.endsWith(` ${ref}`));
    return packed ? packed.slice(0, 7) : 'unknown';
  } catch {
    return 'unknown';
  }
};

const firstLoadGzip = sum(firstLoad, 'gzipBytes');
const result = {
  machine: {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    commit: readCommit(),
    at: new Date().toISOString(),
  },
  dist: {
    dir: shown(distDir),
    builtAt: statSync(indexFile).mtime.toISOString(),
  },
  units: 'bytes; gzip level 6; kB = 1,000 bytes',
  total: {
    chunks: chunks.size,
    rawBytes: sum(all, 'rawBytes'),
    gzipBytes: sum(all, 'gzipBytes'),
  },
  firstLoad: {
    route: '/tickets',
    entries,
    // Fetched through import() before the first render.
    awaitedAtStart: startTexts,
    chunks: firstLoad,
    rawBytes: sum(firstLoad, 'rawBytes'),
    gzipBytes: firstLoadGzip,
    targetGzipKB: FIRST_LOAD_TARGET_KB,
    withinTarget: firstLoadGzip < FIRST_LOAD_TARGET_KB * 1000,
    // index.html's modulepreload links should name exactly the static closure less the entries.
    modulepreload,
    modulepreloadMatches:
      [...modulepreload].sort().join() ===
      staticFirstLoad
        .filter((f) => !entries.includes(f))
        .sort()
        .join(),
  },
  overViteWarning: all.filter((file) => chunks.get(file)!.rawBytes > VITE_WARNING_KB * 1000),
  lazy,
  chunks: [...chunks.values()]
    .sort((a, b) => b.gzipBytes - a.gzipBytes)
    .map((chunk) => ({ ...chunk, firstLoad: firstLoadSet.has(chunk.file) })),
};

const pad = (text: string | number, width: number) => String(text).padStart(width);
console.log(`${'chunk'.padEnd(48)} ${pad('raw kB', 9)} ${pad('gzip kB', 9)}  first load`);
for (const chunk of result.chunks) {
  console.log(
    `${chunk.file.padEnd(48)} ${pad(kB(chunk.rawBytes).toFixed(2), 9)} ${pad(kB(chunk.gzipBytes).toFixed(2), 9)}  ${chunk.firstLoad ? 'yes' : ''}`,
  );
}
console.log(
  `\ntotal: ${chunks.size} chunks, ${kB(result.total.rawBytes)} kB raw, ${kB(result.total.gzipBytes)} kB gzipped`,
);
console.log(
  `first load (/tickets): ${firstLoad.length} chunks, ${kB(result.firstLoad.rawBytes)} kB raw, ` +
    `${kB(firstLoadGzip)} kB gzipped (target < ${FIRST_LOAD_TARGET_KB} kB: ${result.firstLoad.withinTarget ? 'met' : 'missed'})`,
);
if (!result.firstLoad.modulepreloadMatches)
  console.log(`note: index.html preloads ${modulepreload.join(', ') || 'nothing'}`);
if (result.overViteWarning.length)
  console.log(`over Vite's ${VITE_WARNING_KB} kB warning: ${result.overViteWarning.join(', ')}`);
if (otherDist) console.log('not saved (--dist)');
else {
  // With the repository's prettier settings (lib.ts's saveResult uses prettier's defaults, and
  // this file's long lists of chunk names come out differently with them).
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, 'web-bundle.json');
  const options = await resolveConfig(file);
  writeFileSync(file, await format(JSON.stringify(result), { ...options, parser: 'json' }));
  console.log(`written to ${path.relative(root, file)}`);
}
